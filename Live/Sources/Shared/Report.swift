import Foundation

/// The calls the steps make to report what they did: the live run counts the cache hits (thread-safe,
/// from whatever thread the step calls on) and says when the disk cache is turned off, as the simulator's
/// recorder does. What the simulator makes of misses and stores (Belady's MIN, trace lines) is not kept
/// live.
public enum Instruments {
    public static func memoryCacheLookup(_ url: URL, hit: Bool) {
        if hit { LiveTally.count(.memoryCacheHits) }
    }
    public static func memoryCacheStored(_ url: URL, cost: Int, limit: Int) {}

    public static func diskCacheHit() {
        LiveTally.count(.diskCacheHits)
    }

    public static func diskCacheOff(reason: String) {
        LiveNotices.diskCacheOff(reason: reason)
    }
    public static func diskCacheMismatch(file: String, requested: String, found: String) {}
}
