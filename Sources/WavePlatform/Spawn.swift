#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Musl)
import Musl
#endif

/// Starting a program with `posix_spawn`. Its attribute and file-action types are structs in
/// glibc and musl but opaque pointers on Darwin, and Darwin has no `environ` to name (its
/// environment is `_NSGetEnviron()`).
public enum Spawn {
    /// A file the child opens on one of its descriptors before the program starts.
    public struct Redirection: Sendable {
        public var fd: Int32
        public var path: String
        public var flags: Int32
        public var mode: Int

        public init(fd: Int32, path: String, flags: Int32, mode: Int = 0) {
            self.fd = fd
            self.path = path
            self.flags = flags
            self.mode = mode
        }
    }

    /// Why a program could not be started: `posix_spawn`'s error number.
    public struct Failure: Error, Sendable {
        public var code: Int32
        public var text: String { errorText(code) }
    }

    /// Starts `arguments[0]` (a path) with `arguments` and this process's environment, the
    /// `redirections` opened in order. With `defaultSignals`, the child starts with an empty
    /// signal mask and every signal's default action, whatever the spawning thread blocks.
    public static func start(_ arguments: [String], redirections: [Redirection], defaultSignals: Bool = false) -> Result<pid_t, Failure> {
        #if canImport(Darwin)
        var attributes: posix_spawnattr_t? = nil
        var actions: posix_spawn_file_actions_t? = nil
        #else
        var attributes = posix_spawnattr_t()
        var actions = posix_spawn_file_actions_t()
        #endif
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        if defaultSignals {
            var none = sigset_t()
            sigemptyset(&none)
            posix_spawnattr_setsigmask(&attributes, &none)
            var all = sigset_t()
            sigfillset(&all)
            posix_spawnattr_setsigdefault(&attributes, &all)
            posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        }
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for r in redirections {
            posix_spawn_file_actions_addopen(&actions, r.fd, r.path, r.flags, mode_t(r.mode))
        }
        let argv = arguments.map { strdup($0) } + [nil]
        defer { for a in argv { free(a) } }
        #if canImport(Darwin)
        let environment = _NSGetEnviron().pointee
        #else
        let environment = environ
        #endif
        var pid: pid_t = 0
        let e = posix_spawn(&pid, arguments[0], &actions, &attributes, argv, environment)
        return e == 0 ? .success(pid) : .failure(Failure(code: e))
    }
}
