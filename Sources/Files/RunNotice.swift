import Foundation

/// The lines a run tells its user beyond its numbers, worded once for the simulated and the live run: each
/// goes to standard error, and into the report's notices.
package enum RunNotice {
    /// Whether a line of standard error is one of these notices (a step prints each after its name).
    package static func isNotice(_ line: some StringProtocol) -> Bool {
        ["warning: the app turned its disk cache off", "warning: the run was cut at"].contains {
            line.contains($0)
        }
    }

    /// The app turned its disk cache off: `reason` as the app gave it, `failure` why the last disk write
    /// failed.
    package static func diskCacheOff(reason: String, failure: String?) -> String {
        "warning: the app turned its disk cache off (\(reason)" + (failure.map { ": \($0)" } ?? "")
            + "); later launches will download again"
    }

    /// The run reached its time limit, `settleSeconds` after the scenario's end, at `seconds`, with the app
    /// still working.
    package static func cut(atSeconds seconds: Double, settleSeconds: Double) -> String {
        "warning: the run was cut at \(String(format: "%.1f", seconds)) s, \(String(format: "%.0f", settleSeconds)) s "
            + "after the scenario's end, with the app still working: work under way then counts up to the cut"
    }
}
