/// What the app reports to the phone's instruments: the cache hits only the app can see.
public enum Instruments {
    /// The app served a picture from its memory cache.
    public static func memoryCacheHit() {
        Phone.current?.countMemoryCacheHit()
    }

    /// The app served a picture from its disk cache.
    public static func diskCacheHit() {
        Phone.current?.countDiskCacheHit()
    }
}
