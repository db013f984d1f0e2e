import Foundation

/// The process's resident memory, from the kernel.
enum PeakMemory {
    /// The peak resident set size of this process so far, in bytes (`getrusage`'s `ru_maxrss`).
    static var peakBytes: Int {
        var usage = rusage()
        // Linux reports kilobytes, macOS bytes.
        #if os(Linux)
            getrusage(RUSAGE_SELF.rawValue, &usage)
            return usage.ru_maxrss * 1024
        #else
            getrusage(RUSAGE_SELF, &usage)
            return usage.ru_maxrss
        #endif
    }

    /// The current resident set size in bytes (Linux's `/proc/self/statm`; the peak elsewhere).
    static var currentBytes: Int {
        #if os(Linux)
            if let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) {
                let fields = text.split(separator: " ")
                if fields.count > 1, let pages = Int(fields[1]) {
                    return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
                }
            }
        #endif
        return peakBytes
    }
}
