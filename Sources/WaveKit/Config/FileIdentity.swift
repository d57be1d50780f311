import Foundation

/// Which file a path names (device and inode, links followed), so that two spellings of one path
/// (`a.json`, `./a.json`, `../dir/a.json`, a link to it) are known to be the same file.
public struct FileIdentity: Hashable, Sendable {
    public var device: UInt64
    public var inode: UInt64

    /// The identity of the file at `path`; nil when it cannot be looked up.
    public init?(path: String) {
        var st = stat()
        guard !path.utf8.contains(0), stat(path, &st) == 0 else { return nil }
        device = UInt64(st.st_dev)
        inode = UInt64(st.st_ino)
    }
}
