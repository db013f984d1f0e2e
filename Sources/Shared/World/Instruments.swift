/// What the app reports to the phone's instruments: the cache hits only the app can see.
public enum Instruments {
    /// The app served a picture from its memory cache.
    public static func memoryCacheHit() {
        Phone.current?.recorder.memoryCacheHit()
    }

    /// The app served a picture from its disk cache.
    public static func diskCacheHit() {
        Phone.current?.recorder.diskCacheHit()
    }

    /// The app gave up its disk cache for the rest of the launch (a write failed: the disk is full or the
    /// folder is gone); traced once as `disk_cache_off` with the reason.
    public static func diskCacheOff(reason: String) {
        Phone.current?.recorder.diskCacheOff(reason: reason)
    }
}
