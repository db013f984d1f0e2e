/// One of step 4's techniques, as `--without` names it; steps 1 to 3 have none of them and ignore it.
public enum Technique: String, CaseIterable, Sendable, Comparable {
    case memoryCache = "memory-cache"
    case diskCache = "disk-cache"
    case oneLoadPerURL = "one-load-per-url"
    case cancelOnReuse = "cancel-on-reuse"
    case resumeDownloads = "resume-downloads"
    case prefetch
    case diskWhileScrolling = "disk-while-scrolling"
    case extraConcurrency = "extra-concurrency"
    case windowedCancel = "windowed-cancel"
    case keepOnScreen = "keep-on-screen"
    case rememberFailures = "remember-failures"

    public static func < (lhs: Technique, rhs: Technique) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}
