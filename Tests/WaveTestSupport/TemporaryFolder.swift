import Foundation

/// A fresh folder under the system's temporary folder, removed with everything in it when the value
/// goes away. Its path is real (links resolved), so it matches what a child process started in it
/// sees as its current folder. Every test that needs files makes one of these and nothing else.
public final class TemporaryFolder: @unchecked Sendable {
    public let url: URL
    public var path: String { url.path }
    /// Run before the folder is removed (e.g. to lift `chattr +i` from files in it).
    public var beforeRemoval: [() -> Void] = []

    public init(_ label: String = "wavegen-tests") throws {
        let base = URL(fileURLWithPath: FileManager.default.temporaryDirectory.path).resolvingSymlinksInPath()
        url = base.appendingPathComponent("\(label)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit {
        for hook in beforeRemoval { hook() }
        try? FileManager.default.removeItem(at: url)
    }

    /// A fresh, empty folder inside this one (for tests that need several).
    public func subfolder() throws -> URL {
        let sub = url.appendingPathComponent(UUID().uuidString)
        try FileManager.default.createDirectory(at: sub, withIntermediateDirectories: true)
        return sub
    }

    /// The path of `name` inside the folder.
    public func file(_ name: String) -> String { url.appendingPathComponent(name).path }

    /// Writes `text` to `name` (subfolders made as needed) and returns its path.
    @discardableResult
    public func write(_ text: String, to name: String) throws -> String {
        try write(Array(text.utf8), to: name)
    }

    /// Writes `bytes` to `name` (subfolders made as needed) and returns its path.
    @discardableResult
    public func write(_ bytes: [UInt8], to name: String) throws -> String {
        let target = url.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(bytes).write(to: target)
        return target.path
    }

    /// The bytes of `name`.
    public func bytes(_ name: String) throws -> [UInt8] { Array(try Data(contentsOf: url.appendingPathComponent(name))) }

    /// The text of `name`.
    public func text(_ name: String) throws -> String { String(decoding: try bytes(name), as: UTF8.self) }

    /// Names of everything in `sub` (or the folder itself), hidden files included, sorted.
    public func contents(_ sub: String? = nil) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: sub.map(file) ?? path).sorted()
    }
}
