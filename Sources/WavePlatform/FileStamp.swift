#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Musl)
import Musl
#endif

/// What a path looks like on disk, enough to notice that it changed without reading it: whether it
/// exists, its size, its modification and status-change times (nanoseconds) and its inode (an
/// editor that saves by renaming a new file over the old one changes the inode).
public struct FileStamp: Equatable, Sendable {
    public var exists: Bool
    public var size: Int64 = 0
    public var modified: Int64 = 0
    public var changed: Int64 = 0
    public var inode: UInt64 = 0

    /// The stamp of `path` now (`stat`, links followed); `exists` is false when it cannot be read.
    public static func of(_ path: String) -> FileStamp { FileStamp(path: path) }

    public init(path: String) {
        var st = stat()
        guard stat(path, &st) == 0 else { exists = false; return }
        exists = true
        size = Int64(st.st_size)
        #if canImport(Darwin)
        modified = Int64(st.st_mtimespec.tv_sec) * 1_000_000_000 + Int64(st.st_mtimespec.tv_nsec)
        changed = Int64(st.st_ctimespec.tv_sec) * 1_000_000_000 + Int64(st.st_ctimespec.tv_nsec)
        #else
        modified = Int64(st.st_mtim.tv_sec) * 1_000_000_000 + Int64(st.st_mtim.tv_nsec)
        changed = Int64(st.st_ctim.tv_sec) * 1_000_000_000 + Int64(st.st_ctim.tv_nsec)
        #endif
        inode = UInt64(st.st_ino)
    }
}
