import WaveBuild
import WavePlatform

/// The stamps of a set of files taken at one moment; polling compares them with the disk.
public struct FileSnapshot: Sendable {
    private(set) var stamps: [(path: String, stamp: FileStamp)] = []

    public init(_ paths: [String] = []) { add(paths) }

    /// Takes the stamps of `paths` not yet in the snapshot.
    public mutating func add(_ paths: [String]) {
        for p in paths where !stamps.contains(where: { $0.path == p }) { stamps.append((p, FileStamp(path: p))) }
    }

    public var paths: [String] { stamps.map(\.path) }

    /// The paths whose stamp differs from the disk now.
    public func changedPaths() -> [String] {
        stamps.filter { FileStamp(path: $0.path) != $0.stamp }.map(\.path)
    }
}

extension FileSnapshot {
    /// Whether every one of `paths` exists and is not empty: a save, if one was under way, has
    /// written something.
    public static func written(_ paths: [String]) -> Bool {
        paths.map(FileStamp.init(path:)).allSatisfy { $0.exists && $0.size > 0 }
    }

    /// Waits for saves under way on `paths` to finish, and returns how long it waited (seconds).
    ///
    /// Many editors (and `open(path, "w")`) save by truncating a file and then writing it, so a
    /// file read between the two is empty or missing, and the page would flash an error that the
    /// next poll takes back. A path is quiet when its stamp did not change over one `interval` and
    /// it exists and is not empty; after `limit` seconds the files are read as they are, so a
    /// preset really emptied or removed is still reported.
    @discardableResult
    public static func waitUntilQuiet(_ paths: [String], interval: Double = 0.04, limit: Double = 1.0) -> Double {
        let start = Clock.monotonicNanoseconds
        func elapsed() -> Double { Double(Clock.monotonicNanoseconds - start) / 1e9 }
        var before = paths.map(FileStamp.init(path:))
        while elapsed() < limit {
            Clock.sleep(seconds: interval)
            let now = paths.map(FileStamp.init(path:))
            if now == before, now.allSatisfy({ $0.exists && $0.size > 0 }) { break }
            before = now
        }
        return elapsed()
    }
}
