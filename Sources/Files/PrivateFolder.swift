import Foundation

/// The workbook's private per-user folder: `$XDG_CACHE_HOME/image-workbook`, or
/// `~/.cache/image-workbook`, mode 0700. It holds the poster file cache and the key that seals disk-cache
/// entries.
///
/// It is used only when it is a real directory (not a symbolic link) owned by the current user; a folder
/// someone else made there is skipped with one line on standard error, and the run goes on without it. A
/// folder of ours with loose permissions is set back to 0700.
package enum PrivateFolder {
    /// The folder, or nil when there is no usable one (the warning has then been printed once).
    package static var url: URL? { located.url }

    /// The folder, or why there is none.
    private static let located: (url: URL?, problem: String?) = locate()

    /// The secret that keys `seal`: 32 random bytes kept in the private folder (mode 0600), so entries
    /// sealed by one run are accepted by the next. Without a private folder it is a fresh key per process.
    package static var key: [UInt8] { loadedKey.key }

    /// Why `key` is a fresh one of this process, so that entries it seals are not trusted by the next run;
    /// nil when it is the kept key.
    package static var keyProblem: String? { loadedKey.problem }

    private static let loadedKey: (key: [UInt8], problem: String?) = loadKey()

    /// Where the folder belongs, from the environment; nil when neither variable gives an absolute path.
    static func location(environment: [String: String]) -> URL? {
        if let xdg = environment["XDG_CACHE_HOME"], xdg.hasPrefix("/") {
            return URL(fileURLWithPath: xdg, isDirectory: true).appendingPathComponent("image-workbook")
        }
        if let home = environment["HOME"], home.hasPrefix("/") {
            return URL(fileURLWithPath: home, isDirectory: true).appendingPathComponent(
                ".cache/image-workbook")
        }
        return nil
    }

    /// Makes (0700) or checks a private directory; nil with the reason when it cannot be used.
    static func makePrivate(_ folder: URL) -> Result<URL, Refusal> {
        let path = folder.path
        let parent = folder.deletingLastPathComponent().path
        if mkdir(parent, 0o700) != 0, errno != EEXIST {
            // A missing grandparent: make the chain (each new folder 0700).
            try? FileManager.default.createDirectory(
                atPath: parent, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        }
        if mkdir(path, 0o700) != 0, errno != EEXIST {
            return .failure(Refusal(path: path, reason: "cannot create it (\(SystemError.message(errno)))"))
        }
        var status = stat()
        guard lstat(path, &status) == 0 else {
            return .failure(Refusal(path: path, reason: SystemError.message(errno)))
        }
        guard status.st_mode & S_IFMT == S_IFDIR else {
            return .failure(Refusal(path: path, reason: "it is not a directory"))
        }
        guard status.st_uid == geteuid() else {
            return .failure(Refusal(path: path, reason: "it belongs to another user"))
        }
        if status.st_mode & 0o077 != 0, chmod(path, 0o700) != 0 {
            return .failure(Refusal(path: path, reason: "others may write to it"))
        }
        return .success(folder)
    }

    /// Why a private folder was skipped.
    struct Refusal: Error {
        let path: String
        let reason: String
    }

    private static func locate() -> (url: URL?, problem: String?) {
        guard let folder = location(environment: ProcessInfo.processInfo.environment) else {
            let problem = "there is no private folder for its key (neither XDG_CACHE_HOME nor HOME is set)"
            warn("no private cache folder (neither XDG_CACHE_HOME nor HOME is set)")
            return (nil, problem)
        }
        switch makePrivate(folder) {
        case .success(let url): return (url, nil)
        case .failure(let refusal):
            warn("not using \(refusal.path): \(refusal.reason)")
            return (nil, "the private folder for its key, \(refusal.path), is not used (\(refusal.reason))")
        }
    }

    /// One line on standard error; the poster file cache is skipped and disk-cache entries last one process.
    private static func warn(_ message: String) {
        let line = "warning: \(message); running without the poster file cache\n"
        FileHandle.standardError.write(Data(line.utf8))
    }

    private static func loadKey() -> (key: [UInt8], problem: String?) {
        var generator = SystemRandomNumberGenerator()
        let fresh = (0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) }
        guard let folder = url else { return (fresh, located.problem) }
        let keyPath = folder.appendingPathComponent("key").path
        /// The kept key, or why it cannot be read.
        func kept() -> Result<[UInt8], BoundedFile.Failure> {
            switch Result(catching: { () throws(BoundedFile.Failure) in
                try BoundedFile.read(keyPath, as: .smallFile)
            }) {
            case .success(let key) where key.count == 32: return .success(key)
            case .success(let key):
                return .failure(.unreadable(reason: "it holds \(key.count) bytes, not 32"))
            case .failure(let failure): return .failure(failure)
            }
        }
        if case .success(let key) = kept() { return (key, nil) }
        // Write a candidate privately, then link it into place: of several processes starting at once,
        // the first link wins and every process reads the winner.
        let candidate = folder.appendingPathComponent(".tmp-key-\(getpid())-\(UUID().uuidString)").path
        let descriptor = open(candidate, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            return (
                fresh,
                "its key cannot be made in \(folder.path) (\(SystemError.words(errno, context: .output)))"
            )
        }
        let written = fresh.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        close(descriptor)
        defer { unlink(candidate) }
        guard written == 32 else { return (fresh, "its key cannot be written in \(folder.path)") }
        if link(candidate, keyPath) != 0 {
            // A key that is there but damaged (wrong length) is replaced.
            if case .success(let key) = kept() { return (key, nil) }
            rename(candidate, keyPath)
        }
        switch kept() {
        case .success(let key): return (key, nil)
        case .failure(let failure): return (fresh, "its key \(keyPath): \(failure)")
        }
    }
}
