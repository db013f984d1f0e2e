import Files
import LiveLock

/// What a live run tells its user beyond its numbers, as the simulator's recorder keeps it: the disk cache
/// turned off (with why the last disk write failed), the run cut at its time limit. Each goes to standard
/// error and into the report.
enum LiveNotices {
    private static let state = Mutex((notices: [String](), lastDiskWriteFailure: String?.none))

    /// Every notice so far, in the order they came.
    static var all: [String] { state.withLock { $0.notices } }

    /// A disk write failed, for the reason given.
    static func diskWriteFailed(_ reason: String) {
        state.withLock { $0.lastDiskWriteFailure = reason }
    }

    /// The app turned its disk cache off.
    static func diskCacheOff(reason: String) {
        state.withLock { state in
            let notice = RunNotice.diskCacheOff(reason: reason, failure: state.lastDiskWriteFailure)
            if !state.notices.contains(notice) { state.notices.append(notice) }
        }
    }

    /// The run reached its time limit with the app still working.
    static func cut(atSeconds seconds: Double, settleSeconds: Double) {
        state.withLock { $0.notices.append(RunNotice.cut(atSeconds: seconds, settleSeconds: settleSeconds)) }
    }
}
