extension Instruments {
    /// The app's disk cache found a file for one URL holding another URL's header, and treated it as a
    /// miss; traced as `disk_cache_mismatch` with the file and both URLs (the app says so once a launch).
    public static func diskCacheMismatch(file: String, requested: String, found: String) {
        Phone.current?.recorder.event(.diskCacheMismatch(file: file, url: requested, found: found))
    }
}
