import WavePlatform

/// Reads input files safely: only regular files (links followed), never more than a limit, errors
/// as a missing-input `DocumentProblem` with the reason. Presets, images, fonts and manifests all come in here.
public enum BoundedFile {
    /// Why `path` cannot be read as a `kind` file of at most `limit` bytes (symbolic links
    /// followed), or nil when it can.
    public static func problem(_ path: String, kind: String, limit: Int) -> String? {
        let target = FileSystem.resolved(path) ?? path
        guard let found = FileSystem.kind(of: target) else { return "no such file" }
        guard found != .directory else { return "is a directory, not \(kind == "image" ? "an" : "a") \(kind) file" }
        guard found == .regularFile else { return "is not a regular file" }
        if let size = FileSystem.size(of: target), size > limit {
            return "is \(size) bytes; \(kind)s are limited to \(limit) bytes"
        }
        return nil
    }

    /// The bytes of the `kind` file at `path`, of at most `limit` bytes.
    public static func read(_ path: String, limit: Int, kind: String = "preset") throws(WaveError) -> [UInt8] {
        let unreadable = { (reason: String) in WaveError(DocumentProblem(file: path, message: reason, kind: .missingInput)) }
        if let reason = problem(path, kind: kind, limit: limit) { throw unreadable(reason) }
        let bytes: [UInt8]
        do {
            bytes = try FileSystem.read(path, upTo: limit + 1)
        } catch where error.call == "open" {
            throw unreadable("cannot be opened for reading (permission denied?)")
        } catch {
            throw unreadable("cannot be read: \(error.reason)")
        }
        guard bytes.count <= limit else {
            throw unreadable("is larger than \(limit) bytes; \(kind)s are limited to \(limit) bytes")
        }
        return bytes
    }
}
