import Foundation

/// The calls the steps make to report what they did. Compile twin: every one does nothing yet, since no
/// live report counts them; a live mode must make them count before it shows any figure they feed.
public enum Instruments {
    public static func memoryCacheLookup(_ url: URL, hit: Bool) {}
    public static func memoryCacheStored(_ url: URL, cost: Int, limit: Int) {}
    public static func diskCacheHit() {}
    public static func diskCacheOff(reason: String) {}
    public static func diskCacheMismatch(file: String, requested: String, found: String) {}
}
