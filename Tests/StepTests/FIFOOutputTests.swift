import Foundation
import Shared
import TestSupport
import Testing

/// Output paths that are FIFOs: nobody reading, a reader that takes the trace, a reader that never reads.
/// Each runs a step as a child process bounded in time; none may block the step for good.
extension ProcessTests {
    /// Makes a FIFO in a fresh folder named for `name`, opens its read end (non-blocking) before `body`
    /// runs, and closes it and removes the folder after.
    static func withReadFIFO(_ name: String, _ body: (_ fifo: String, _ reader: Int32) throws -> Void) throws
    {
        let folder = try StepFixtures.folder(name)
        defer { try? FileManager.default.removeItem(at: folder) }
        let fifo = folder.appendingPathComponent("out").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let reader = open(fifo, O_RDONLY | O_NONBLOCK)
        #expect(reader >= 0)
        defer { close(reader) }
        try body(fifo, reader)
    }

    @Test(
        "A FIFO nobody reads as --trace or --timeline is refused at once in one line, exit 2",
        .enabled(if: binaries != nil, "the step executables are not built next to the tests"))
    func fifoNobodyReadsRefused() throws {
        for option in ["--trace", "--timeline"] {
            let folder = try StepFixtures.folder("fifo")
            defer { try? FileManager.default.removeItem(at: folder) }
            let fifo = folder.appendingPathComponent("out").path
            #expect(mkfifo(fifo, 0o600) == 0, "\(option)")
            let outcome = try Self.runChild([option, fifo], deadline: 20)
            #expect(outcome.status == 2, "\(option)")
            #expect(outcome.seconds < 10, "\(option): took \(outcome.seconds) s")
            #expect(Self.lines(outcome.errors).count == 1, "\(option): \(outcome.errors)")
            #expect(
                outcome.errors.contains(option) && outcome.errors.contains("no process is reading"),
                "\(option)")
        }
    }

    @Test(
        "A FIFO with a reader gets the whole trace",
        .enabled(if: binaries != nil, "the step executables are not built next to the tests"))
    func fifoWithReaderGetsTrace() throws {
        // This test reads the FIFO itself: its read end is open before the step starts.
        try Self.withReadFIFO("fifo-read") { fifo, reader in
            let binaries = try #require(Self.binaries)
            let process = Process()
            process.executableURL = binaries.appendingPathComponent(Step.naive.rawValue)
            process.arguments = ["--trace", fifo, "--scenario", "reading"]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            var bytes: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 65536)
            let deadline = Date().addingTimeInterval(60)
            while Date() < deadline {
                let count = read(reader, &buffer, buffer.count)
                if count > 0 {
                    bytes += buffer[0..<count]
                } else if !process.isRunning {
                    break
                } else {
                    usleep(10_000)
                }
            }
            process.waitUntilExit()
            #expect(process.terminationStatus == 0)
            let trace = String(decoding: bytes, as: UTF8.self)
            #expect(trace.hasSuffix("\n") && trace.split(separator: "\n").count > 100)
        }
    }

    @Test(
        "A FIFO reader that opens and never reads costs the stall limit, then one line and exit 1",
        .enabled(if: binaries != nil, "the step executables are not built next to the tests"))
    func fifoReaderThatNeverReads() throws {
        // The read end is open the whole run and nothing is read: `reading`'s trace is larger than a pipe
        // holds, so the step's write waits for a reader that never takes more.
        try Self.withReadFIFO("fifo-stall") { fifo, _ in
            let outcome = try Self.runChild(["--trace", fifo, "--scenario", "reading"], deadline: 30)
            #expect(outcome.status == 1, "\(outcome.errors)")
            #expect(Self.lines(outcome.errors).count == 1, "one line: \(outcome.errors)")
            #expect(
                outcome.errors.contains("took nothing for \(OutputFile.stallSeconds) s"), "\(outcome.errors)")
            // The bound, with the run's own seconds inside it.
            #expect(outcome.seconds < 10, "took \(outcome.seconds) s")
            #expect(outcome.output.contains("requests_started"), "the report is still printed")
        }
    }
}
