import Shared

/// The parts of step 5 that `--without` can turn off, to show what each one buys: the articles' ideas,
/// one each, named as the command line names them.
enum Technique: String, CaseIterable {
    case memoryCache = "memory-cache"
    case diskCache = "disk-cache"
    case oneLoadPerURL = "one-load-per-url"
    case cancelOnReuse = "cancel-on-reuse"
    case prefetch
    /// Five downloads at once, as in the multi-image article (one without it, as in step 3).
    case extraConcurrency = "extra-concurrency"
}
