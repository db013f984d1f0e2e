import Foundation

/// A tmux server of its own (its own socket, no configuration file) with one detached 100×40 pane running
/// a shell command: what a test needs to read back, cell by cell, what a program drew in a real terminal.
struct TmuxPane {
    /// Where tmux is, if it is installed.
    static let tmux = ["/usr/bin/tmux", "/usr/local/bin/tmux", "/opt/homebrew/bin/tmux"].first {
        FileManager.default.isExecutableFile(atPath: $0)
    }

    private let tmux: String
    private let socket: String

    /// Starts the pane running `command` (a shell command line); nil if tmux is missing or would not start.
    init?(running command: String) {
        guard let tmux = Self.tmux else { return nil }
        self.tmux = tmux
        let process = ProcessInfo.processInfo.processIdentifier
        socket = "workbook-tmux-\(process)-\(UInt32.random(in: 0...UInt32.max))"
        #if os(Linux)
            // The server that `new-session` starts outlives the command; one started through Foundation's
            // `Process` on Linux does not survive it, so the shell starts it.
            let started = system(
                "'\(tmux)' -L \(socket) -f /dev/null new-session -d -x 100 -y 40 \"\(command)\" </dev/null >/dev/null 2>&1"
            )
        #else
            let started = (try? run(["new-session", "-d", "-x", "100", "-y", "40", command]))?.status ?? -1
        #endif
        guard started == 0 else {
            close()
            return nil
        }
    }

    /// The pane's cells with their colours (`capture-pane -e -p`), once `marker` shows or after about ten
    /// seconds.
    func capture(waitingFor marker: String) -> String {
        var captured = ""
        for _ in 0..<200 {
            captured = (try? run(["capture-pane", "-p", "-e", "-t", "0"]))?.output ?? ""
            if captured.contains(marker) { break }
            Thread.sleep(forTimeInterval: 0.05)
        }
        return captured
    }

    /// A tmux format evaluated for the pane (`display-message -p`), such as `#{alternate_on}`, once it
    /// reads `expected` or after about ten seconds.
    func display(_ format: String, waitingFor expected: String) -> String {
        var shown = ""
        for _ in 0..<200 {
            shown = ((try? run(["display-message", "-p", "-t", "0", format]))?.output ?? "")
                .trimmingCharacters(in: .whitespacesAndNewlines)
            if shown == expected { break }
            Thread.sleep(forTimeInterval: 0.05)
        }
        return shown
    }

    /// Stops the server and the pane's program.
    func close() {
        _ = try? run(["kill-server"])
    }

    /// Runs a tmux command against this server: its standard output and exit status.
    private func run(_ arguments: [String]) throws -> (output: String, status: Int32) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tmux)
        process.arguments = ["-L", socket, "-f", "/dev/null"] + arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (String(decoding: data, as: UTF8.self), process.terminationStatus)
    }
}
