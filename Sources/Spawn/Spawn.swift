import Foundation

/// Starts a program with `posix_spawn`, the one way `Compare`, `Course` and the tests start a child: it
/// reads nothing, writes where it is told, starts with every signal at its default action and none blocked
/// (whatever its parent set for its own watchers), and, when asked, leads a process group of its own, so
/// that the whole group can be ended together.
///
/// Foundation's `Process` is not used: on Linux its `isRunning` stays true while any process the child left
/// behind holds a descriptor the child inherited, and it cannot set a process group.
public enum Spawn {
    /// Where a child's standard output or standard error goes.
    public enum Destination: Sendable, Equatable {
        /// A file, created or truncated, readable by this user only.
        case file(String)
        /// A descriptor of this process (a pipe's end), duplicated into the child.
        case descriptor(Int32)
        /// Standard error only: wherever standard output goes.
        case standardOutput
    }

    /// Starts `path` with `arguments` (not counting the program's own name), this process's environment
    /// with `environment` laid over it, and its output and errors sent to `output` and `errors`; returns
    /// its process id, which is its group's too when `ownGroup`. Throws the `POSIXError` `posix_spawn`
    /// gave.
    public static func start(
        _ path: String, _ arguments: [String], environment: [String: String] = [:], output: Destination,
        errors: Destination, ownGroup: Bool
    ) throws -> pid_t {
        // Structs on Linux, optional pointers the calls fill in on Darwin.
        #if canImport(Darwin)
            var actions: posix_spawn_file_actions_t? = nil
            var attributes: posix_spawnattr_t? = nil
        #else
            var actions = posix_spawn_file_actions_t()
            var attributes = posix_spawnattr_t()
        #endif
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var flags = POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK
        if ownGroup {
            flags |= POSIX_SPAWN_SETPGROUP
            posix_spawnattr_setpgroup(&attributes, 0)
        }
        posix_spawnattr_setflags(&attributes, Int16(flags))
        var signals = sigset_t()
        sigfillset(&signals)
        posix_spawnattr_setsigdefault(&attributes, &signals)
        sigemptyset(&signals)
        posix_spawnattr_setsigmask(&attributes, &signals)
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        for (descriptor, destination) in [(Int32(1), output), (2, errors)] {
            switch destination {
            case .file(let path):
                posix_spawn_file_actions_addopen(
                    &actions, descriptor, path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
            case .descriptor(let source):
                posix_spawn_file_actions_adddup2(&actions, source, descriptor)
            case .standardOutput:
                posix_spawn_file_actions_adddup2(&actions, 1, descriptor)
            }
        }
        // The environment is made explicitly: Swift on Darwin has no `environ`.
        let variables = ProcessInfo.processInfo.environment.merging(environment) { _, laid in laid }
        var cArguments = ([path] + arguments).map { strdup($0) } + [nil]
        var cEnvironment =
            variables.sorted { $0.key < $1.key }.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for pointer in cArguments { free(pointer) }
            for pointer in cEnvironment { free(pointer) }
        }
        var id: pid_t = 0
        let spawned = posix_spawn(&id, path, &actions, &attributes, &cArguments, &cEnvironment)
        guard spawned == 0 else { throw POSIXError(POSIXErrorCode(rawValue: spawned) ?? .EIO) }
        return id
    }
}
