import Foundation
import Shared
import Spawn
import TestSupport

/// A step executable run as a child process, with its peak memory and wall time measured by the kernel
/// (its high-water mark, polled until it exits: `/proc` on Linux, `proc_pid_rusage` on Darwin), for the
/// tests that bound what bad input may cost.
struct ChildProcess {
    /// How the child ended and what it cost.
    struct Outcome {
        /// The exit status, or 128 + the signal number when a signal ended it.
        let status: Int32
        /// Wall time from spawn to exit.
        let seconds: Double
        /// Peak resident memory, in bytes.
        let peakBytes: Int
        let output: String
        let errors: String
    }

    /// Runs an executable to its end (or kills it `deadline` seconds after the start) with extra environment
    /// variables; the output goes through files, so a large report cannot block the child.
    static func run(
        _ executable: URL, _ arguments: [String], environment: [String: String] = [:], deadline: Double = 90
    ) throws
        -> Outcome
    {
        let folder = try StepFixtures.folder("child")
        defer { try? FileManager.default.removeItem(at: folder) }
        let outPath = folder.appendingPathComponent("out").path
        let errPath = folder.appendingPathComponent("err").path
        let start = ContinuousClock.now
        let pid = try Spawn.start(
            executable.path, arguments, environment: environment, output: .file(outPath),
            errors: .file(errPath), ownGroup: false)
        // A child still running at the deadline is killed (and then fails the caller's time bound).
        var status: Int32 = 0
        var usage = rusage()
        var peakBytes = 0
        while true {
            // Read before reaping: the child's own high-water mark goes with its process entry.
            peakBytes = max(peakBytes, Self.highWaterBytes(of: pid))
            if wait4(pid, &status, WNOHANG, &usage) != 0 { break }
            if ContinuousClock.now - start > .seconds(deadline) { kill(pid, SIGKILL) }
            usleep(20_000)
        }
        let elapsed = ContinuousClock.now - start
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        let signalled = status & 0x7f
        return Outcome(
            status: signalled == 0 ? (status >> 8) & 0xff : 128 + signalled, seconds: seconds,
            peakBytes: peakBytes,
            output: String(
                decoding: (try? Data(contentsOf: URL(fileURLWithPath: outPath))) ?? Data(), as: UTF8.self),
            errors: String(
                decoding: (try? Data(contentsOf: URL(fileURLWithPath: errPath))) ?? Data(), as: UTF8.self))
    }
}

extension ChildProcess {
    #if canImport(Darwin)
        /// The child's peak memory footprint so far (`proc_pid_rusage`'s lifetime maximum), 0 once it has
        /// gone.
        static func highWaterBytes(of pid: pid_t) -> Int {
            var usage = rusage_info_v4()
            let read = withUnsafeMutablePointer(to: &usage) { pointer in
                pointer.withMemoryRebound(to: rusage_info_t?.self, capacity: 1) {
                    proc_pid_rusage(pid, RUSAGE_INFO_V4, $0)
                }
            }
            return read == 0 ? Int(usage.ri_lifetime_max_phys_footprint) : 0
        }
    #else
        /// The child's peak resident memory so far (`VmHWM`), 0 once it has gone. `wait4`'s `ru_maxrss`
        /// cannot serve: Linux carries the spawning process's own peak into the child's at `exec`, so a
        /// large test process would be charged to every child it starts.
        static func highWaterBytes(of pid: pid_t) -> Int {
            guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else {
                return 0
            }
            for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
                let kilobytes = line.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
                return kilobytes * 1024
            }
            return 0
        }
    #endif
}

/// PNG files whose pixel data is all zeros, compressed as fixed-Huffman back-references: a few kilobytes
/// that inflate to megabytes and decode to hundreds of megabytes of pixels. Every byte is valid: only a
/// limit can refuse them.
enum ZeroPNG {
    /// A greyscale PNG of `width` × `height` black pixels, `bitDepth` bits each (1, 2, 4, 8 or 16).
    static func make(width: UInt32, height: UInt32, bitDepth: UInt8 = 1) -> [UInt8] {
        let count = Int(height) * (1 + (Int(width) * Int(bitDepth) + 7) / 8)
        var bits = BitStream()
        bits.bytes = [0x78, 0x01]
        bits.put(1, 1)  // the final block
        bits.put(1, 2)  // fixed Huffman codes
        bits.put(0x0C, 8)  // literal 0 (code 00110000, written bit-reversed)
        var made = 1
        while count - made >= 258 {
            bits.put(0xA3, 8)  // length 258 (symbol 285: code 11000101, reversed)
            bits.put(0, 5)  // distance 1 (distance code 0)
            made += 258
        }
        while made < count {
            bits.put(0x0C, 8)
            made += 1
        }
        bits.put(0, 7)  // end of block
        bits.flush()
        let adler = UInt32(count % 65521) << 16 | 1
        var header = bigEndian(width) + bigEndian(height)
        header += [bitDepth, 0, 0, 0, 0]
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", header)
            + chunk("IDAT", bits.bytes + bigEndian(adler)) + chunk("IEND", [])
    }

    private static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8((value >> 16) & 0xff), UInt8((value >> 8) & 0xff), UInt8(value & 0xff)]
    }

    private static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let body = Array(type.utf8) + data
        return bigEndian(UInt32(data.count)) + body + bigEndian(CRC32.checksum(body))
    }

    /// Bits written least-significant first, as deflate wants.
    private struct BitStream {
        var bytes: [UInt8] = []
        var buffer: UInt64 = 0
        var count = 0

        mutating func put(_ value: UInt64, _ bitCount: Int) {
            buffer |= value << UInt64(count)
            count += bitCount
            while count >= 8 {
                bytes.append(UInt8(buffer & 0xff))
                buffer >>= 8
                count -= 8
            }
        }

        mutating func flush() {
            if count > 0 { bytes.append(UInt8(buffer & 0xff)) }
            buffer = 0
            count = 0
        }
    }
}
