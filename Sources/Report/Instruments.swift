import Foundation
import Runtime

/// What the app reports to the phone's instruments: the cache hits only the app can see. Each call goes to
/// the recorder of the host whose simulated thread makes it (`SimulatedThread.host`); outside a run, to
/// none.
public enum Instruments {
    /// The app looked a picture up in its memory cache: found it (`hit`, a memory-cache hit) or not.
    public static func memoryCacheLookup(_ url: URL, hit: Bool) {
        recorder?.memoryCacheLookup(url: url.absoluteString, hit: hit)
    }

    /// The app stored `url`'s picture of `cost` bytes in its memory cache, which holds at most `limit`
    /// bytes: what Belady's MIN needs to know of the cache's size, and of what came in without a lookup.
    public static func memoryCacheStored(_ url: URL, cost: Int, limit: Int) {
        recorder?.memoryCacheStored(url: url.absoluteString, cost: cost, limit: limit)
    }

    /// The app served a picture from its disk cache.
    public static func diskCacheHit() {
        recorder?.diskCacheHit()
    }

    /// The app gave up its disk cache for the rest of the launch (a write failed: the disk is full or the
    /// folder is gone); traced once as `disk_cache_off` with the reason.
    public static func diskCacheOff(reason: String) {
        recorder?.diskCacheOff(reason: reason)
    }

    /// The app's disk cache found a file for one URL holding another URL's header, and treated it as a
    /// miss; traced as `disk_cache_mismatch` with the file and both URLs, the first time in a launch.
    public static func diskCacheMismatch(file: String, requested: String, found: String) {
        recorder?.diskCacheMismatch(file: file, url: requested, found: found)
    }

    private static var recorder: Recorder? {
        SimulatedThread.currentHost(as: (any RecordingHost).self)?.recorder
    }
}

/// A host whose instruments report to a recorder (the phone is one).
package protocol RecordingHost: AppHost {
    /// The run's recorder.
    var recorder: Recorder { get }
}
