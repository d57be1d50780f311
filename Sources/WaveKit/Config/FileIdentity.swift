import WavePlatform

/// Which file a path names (device and inode, links followed), so that two spellings of one path
/// (`a.json`, `./a.json`, `../dir/a.json`, a link to it) are known to be the same file.
public struct FileIdentity: Hashable, Sendable {
    public var device: UInt64
    public var inode: UInt64

    /// The identity of the file at `path`; nil when it cannot be looked up.
    public init?(path: String) {
        guard let identity = FileSystem.identity(of: path) else { return nil }
        device = identity.device
        inode = identity.inode
    }
}
