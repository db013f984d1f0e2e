#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The process's standard output when it is a terminal that can draw the live table: its size, writes
/// that go out whole, and the alternate screen, left again at the end or when the user presses Ctrl-C.
public final class Terminal: Sendable {
    private init() {}

    /// The terminal on standard output, or nil when standard output is not a terminal (a pipe, a file, CI)
    /// or `TERM` is unset, empty or `dumb`, which cannot move the cursor.
    public static func standardOutput() -> Terminal? {
        guard isatty(1) == 1 else { return nil }
        guard let term = getenv("TERM").map({ String(cString: $0) }), !term.isEmpty, term != "dumb" else {
            return nil
        }
        return Terminal()
    }

    /// The terminal's width and height in cells, asked for again each time (the window can be resized);
    /// 80 × 24 when it does not say.
    public var size: (columns: Int, lines: Int) {
        var size = winsize()
        guard ioctl(1, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0, size.ws_row > 0 else {
            return (80, 24)
        }
        return (Int(size.ws_col), Int(size.ws_row))
    }

    /// Writes all of `bytes`, however many writes that takes; gives up on an error other than an interrupt.
    public func write(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = systemWrite(1, buffer.baseAddress! + offset, buffer.count - offset)
                if written > 0 {
                    offset += written
                } else if written < 0 && errno == EINTR {
                    continue
                } else {
                    return
                }
            }
        }
    }

    /// What puts the terminal back as it was: plain colours, the cursor shown, the normal screen.
    public static let restoreSequence = "\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l"

    /// The signals that end a run on a terminal: Ctrl-C, a `kill`, the terminal closing.
    static let endingSignals = [SIGINT, SIGTERM, SIGHUP]

    /// Switches to the alternate screen, clears it and hides the cursor; from now on SIGINT, SIGTERM and
    /// SIGHUP leave it before the process ends (in a process that waits for those signals itself, as the
    /// live steps do, its own cleanup puts the terminal back instead).
    public func enterAlternateScreen() {
        write(Array("\u{1B}[?1049h\u{1B}[?25l\u{1B}[2J\u{1B}[H".utf8))
        for number in Self.endingSignals {
            signal(number) { number in
                let restore: StaticString = "\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l"
                _ = systemWrite(1, restore.utf8Start, restore.utf8CodeUnitCount)
                _exit(128 + number)
            }
        }
    }

    /// Shows the cursor and goes back to the normal screen, as it was; the ending signals end the process
    /// at once again.
    public func leaveAlternateScreen() {
        for number in Self.endingSignals { signal(number, SIG_DFL) }
        write(Array(Self.restoreSequence.utf8))
    }
}

/// POSIX `write`, named apart from `Terminal.write`.
private func systemWrite(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    #if canImport(Glibc)
        Glibc.write(descriptor, bytes, count)
    #else
        Darwin.write(descriptor, bytes, count)
    #endif
}
