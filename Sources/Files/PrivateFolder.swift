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
    package static let url: URL? = locate()

    /// The secret that keys `seal`: 32 random bytes kept in the private folder (mode 0600), so entries
    /// sealed by one run are accepted by the next. Without a private folder it is a fresh key per process.
    package static let key: [UInt8] = loadKey()

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

    private static func locate() -> URL? {
        guard let folder = location(environment: ProcessInfo.processInfo.environment) else {
            warn("no private cache folder (neither XDG_CACHE_HOME nor HOME is set)")
            return nil
        }
        switch makePrivate(folder) {
        case .success(let url): return url
        case .failure(let refusal):
            warn("not using \(refusal.path): \(refusal.reason)")
            return nil
        }
    }

    /// One line on standard error; the poster file cache is skipped and disk-cache entries last one process.
    private static func warn(_ message: String) {
        let line = "warning: \(message); running without the poster file cache\n"
        FileHandle.standardError.write(Data(line.utf8))
    }

    private static func loadKey() -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        let fresh = (0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) }
        guard let folder = url else { return fresh }
        let keyPath = folder.appendingPathComponent("key").path
        if let key = try? BoundedFile.read(keyPath, as: .smallFile), key.count == 32 { return key }
        // Write a candidate privately, then link it into place: of several processes starting at once,
        // the first link wins and every process reads the winner.
        let candidate = folder.appendingPathComponent(".tmp-key-\(getpid())-\(UUID().uuidString)").path
        let descriptor = open(candidate, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { return fresh }
        let written = fresh.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        close(descriptor)
        defer { unlink(candidate) }
        guard written == 32 else { return fresh }
        if link(candidate, keyPath) != 0 {
            // A key that is there but damaged (wrong length) is replaced.
            if let key = try? BoundedFile.read(keyPath, as: .smallFile), key.count == 32 { return key }
            rename(candidate, keyPath)
        }
        if let key = try? BoundedFile.read(keyPath, as: .smallFile), key.count == 32 { return key }
        return fresh
    }
}
