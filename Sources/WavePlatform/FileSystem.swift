#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Musl)
import Musl
#endif

/// Files and folders by path: what a path is, whole-file reads, folder listings and creation,
/// renames and removals. Paths are UTF-8 strings; errors carry the system's own text.
public enum FileSystem {
    /// What a path names, links followed.
    public enum Kind: Equatable, Sendable {
        case regularFile
        case directory
        /// A device, pipe, socket or other special file.
        case other
    }

    /// A failed call: the path, the call (`open`, `read`, `mkdir`, ...), the `errno` and its text (`strerror`).
    public struct Failure: Error, Equatable, Sendable {
        public var path: String
        public var call: String
        public var code: Int32
        /// The system's text for `code`, such as "No such file or directory".
        public var reason: String { errorText(code) }

        public init(path: String, call: String, code: Int32) {
            self.path = path
            self.call = call
            self.code = code
        }

        /// Whether the path (or a folder on it) does not exist (`ENOENT`).
        public var isMissing: Bool { code == ENOENT }
    }

    /// What `path` names (`stat`, links followed), or nil when it does not exist or cannot be reached.
    public static func kind(of path: String) -> Kind? { status(path, followingLinks: true).map(kind) }

    /// What `path` itself names, a symbolic link not followed (`lstat`): a link is `.other`; nil
    /// when nothing is there.
    public static func kindOfEntry(_ path: String) -> Kind? { status(path, followingLinks: false).map(kind) }

    /// The device and inode of the file at `path` (links followed), which two spellings of one
    /// path share; nil when it cannot be looked up.
    public static func identity(of path: String) -> (device: UInt64, inode: UInt64)? {
        status(path, followingLinks: true).map { (UInt64($0.st_dev), UInt64($0.st_ino)) }
    }

    /// `stat` (or `lstat`) of `path`; nil when it fails or the path holds a NUL byte.
    private static func status(_ path: String, followingLinks: Bool) -> stat? {
        var st = stat()
        guard !path.utf8.contains(0), (followingLinks ? stat(path, &st) : lstat(path, &st)) == 0 else { return nil }
        return st
    }

    private static func kind(_ st: stat) -> Kind {
        switch st.st_mode & S_IFMT {
        case S_IFREG: return .regularFile
        case S_IFDIR: return .directory
        default: return .other
        }
    }

    /// Whether `path` exists (links followed).
    public static func exists(_ path: String) -> Bool { kind(of: path) != nil }

    /// Whether `path` is a folder (links followed).
    public static func isDirectory(_ path: String) -> Bool { kind(of: path) == .directory }

    /// The size of the file at `path` in bytes (links followed), or nil when it cannot be reached.
    public static func size(of path: String) -> Int? {
        status(path, followingLinks: true).map { Int($0.st_size) }
    }

    /// `path` with every symbolic link, `.` and `..` resolved (`realpath`), or nil when it does not exist.
    public static func resolved(_ path: String) -> String? {
        guard let p = realpath(path, nil) else { return nil }
        defer { free(p) }
        return String(cString: p)
    }

    /// The process's current folder (`getcwd`).
    public static var currentDirectory: String {
        guard let p = getcwd(nil, 0) else { return "." }
        defer { free(p) }
        return String(cString: p)
    }

    /// Up to `limit` bytes of the file at `path`, read from its start: all of it when it is smaller.
    public static func read(_ path: String, upTo limit: Int = Int.max) throws(Failure) -> [UInt8] {
        guard !path.utf8.contains(0) else { throw Failure(path: path, call: "open", code: ENOENT) }
        let fd = openRetrying(path, O_RDONLY | O_CLOEXEC, 0)
        guard fd >= 0 else { throw Failure(path: path, call: "open", code: errno) }
        defer { _ = close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while bytes.count < limit {
            let wanted = min(chunk.count, limit - bytes.count)
            let n = chunk.withUnsafeMutableBytes { systemRead(fd, $0.baseAddress!, wanted) }
            if n < 0 {
                if errno == EINTR { continue }
                throw Failure(path: path, call: "read", code: errno)
            }
            if n == 0 { break }
            bytes.append(contentsOf: chunk[0..<n])
        }
        return bytes
    }

    /// The whole file at `path`, or nil when it cannot be read.
    public static func contents(of path: String) -> [UInt8]? { try? read(path) }

    /// The names in folder `path` (without `.` and `..`), sorted by their bytes, so listings do
    /// not depend on the file system's order.
    public static func names(in path: String) throws(Failure) -> [String] {
        guard let dir = opendir(path) else { throw Failure(path: path, call: "opendir", code: errno) }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }

    /// Creates folder `path` and any missing folders above it (mode 0755 before the umask); a
    /// folder that already exists is fine.
    public static func createDirectory(_ path: String) throws(Failure) {
        if isDirectory(path) { return }
        let parent = parentFolder(of: path)
        if !parent.isEmpty, parent != path, !exists(parent) { try createDirectory(parent) }
        if mkdir(path, 0o755) != 0 {
            let code = errno
            if code == EEXIST, isDirectory(path) { return }
            throw Failure(path: path, call: "mkdir", code: code)
        }
    }

    /// Renames `source` over `target` (`rename`): atomic on one file system.
    public static func rename(_ source: String, to target: String) throws(Failure) {
        guard systemRename(source, target) == 0 else { throw Failure(path: target, call: "rename", code: errno) }
    }

    /// Removes the file `path` (`unlink`).
    public static func remove(_ path: String) throws(Failure) {
        guard unlink(path) == 0 else { throw Failure(path: path, call: "unlink", code: errno) }
    }

    /// Removes the empty folder `path` (`rmdir`).
    public static func removeDirectory(_ path: String) throws(Failure) {
        guard rmdir(path) == 0 else { throw Failure(path: path, call: "rmdir", code: errno) }
    }

    /// Opens `path` for reading and waits for an exclusive advisory lock on it (`flock`), which
    /// lasts until the returned descriptor is closed (`Descriptor.close`); nil when it cannot be opened.
    public static func lockExclusively(_ path: String) -> Int32? {
        let fd = openRetrying(path, O_RDONLY | O_CLOEXEC, 0)
        guard fd >= 0 else { return nil }
        while flock(fd, LOCK_EX) != 0, errno == EINTR {}
        return fd
    }

    /// Creates a new file at `path` for writing, failing if it exists (`O_CREAT | O_EXCL`, mode 0644
    /// before the umask); the caller closes the descriptor.
    public static func createNew(_ path: String) throws(Failure) -> Int32 {
        let fd = openRetrying(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw Failure(path: path, call: "open", code: errno) }
        return fd
    }

    /// The folder part of `path` ("" for a bare name, "/" for a name in the root).
    static func parentFolder(of path: String) -> String {
        var trimmed = Substring(path)
        while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
        guard let slash = trimmed.lastIndex(of: "/") else { return "" }
        return slash == trimmed.startIndex ? "/" : String(trimmed[..<slash])
    }
}

private func openRetrying(_ path: String, _ flags: Int32, _ mode: mode_t) -> Int32 {
    while true {
        let fd = open(path, flags, mode)
        if fd >= 0 || errno != EINTR { return fd }
    }
}

private func systemRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int { read(fd, buffer, count) }
private func systemRename(_ a: String, _ b: String) -> Int32 { rename(a, b) }
