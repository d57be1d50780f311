import Foundation

/// What a path looks like on disk, enough to notice that it changed without reading it: whether it
/// exists, its size, its modification and status-change times (nanoseconds) and its inode (an
/// editor that saves by renaming a new file over the old one changes the inode).
struct FileStamp: Equatable, Sendable {
    var exists: Bool
    var size: Int64 = 0
    var modified: Int64 = 0
    var changed: Int64 = 0
    var inode: UInt64 = 0

    init(path: String) {
        var st = stat()
        guard stat(path, &st) == 0 else { exists = false; return }
        exists = true
        size = Int64(st.st_size)
        modified = Int64(st.st_mtim.tv_sec) * 1_000_000_000 + Int64(st.st_mtim.tv_nsec)
        changed = Int64(st.st_ctim.tv_sec) * 1_000_000_000 + Int64(st.st_ctim.tv_nsec)
        inode = UInt64(st.st_ino)
    }
}

/// The stamps of a set of files taken at one moment; polling compares them with the disk.
struct FileSnapshot: Sendable {
    private(set) var stamps: [(path: String, stamp: FileStamp)] = []

    init(_ paths: [String] = []) { add(paths) }

    /// Takes the stamps of `paths` not yet in the snapshot.
    mutating func add(_ paths: [String]) {
        for p in paths where !stamps.contains(where: { $0.path == p }) { stamps.append((p, FileStamp(path: p))) }
    }

    var paths: [String] { stamps.map(\.path) }

    /// The paths whose stamp differs from the disk now.
    func changedPaths() -> [String] {
        stamps.filter { FileStamp(path: $0.path) != $0.stamp }.map(\.path)
    }
}
