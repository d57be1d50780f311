import Foundation

/// Reads input files safely: only regular files (links followed), never more than a limit, errors
/// as a missing-input `DocumentProblem` with the reason. Presets, images, fonts and manifests all come in here.
public enum BoundedFile {
    /// Why `path` cannot be read as a `kind` file of at most `limit` bytes (symbolic links
    /// followed), or nil when it can.
    public static func problem(_ path: String, kind: String, limit: Int) -> String? {
        let target = realpath(path, nil).map { p in defer { free(p) }; return String(cString: p) } ?? path
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: target, isDirectory: &isDirectory) else { return "no such file" }
        guard !isDirectory.boolValue else { return "is a directory, not \(kind == "image" ? "an" : "a") \(kind) file" }
        let attributes = try? FileManager.default.attributesOfItem(atPath: target)
        guard let type = attributes?[.type] as? FileAttributeType, type == .typeRegular else { return "is not a regular file" }
        if let size = attributes?[.size] as? Int, size > limit {
            return "is \(size) bytes; \(kind)s are limited to \(limit) bytes"
        }
        return nil
    }

    /// The bytes of the `kind` file at `path`, of at most `limit` bytes.
    public static func read(_ path: String, limit: Int, kind: String = "preset") throws(DocumentError) -> [UInt8] {
        let unreadable = { (reason: String) in DocumentError(DocumentProblem(file: path, message: reason, kind: .missingInput)) }
        if let reason = problem(path, kind: kind, limit: limit) { throw unreadable(reason) }
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw unreadable("cannot be opened for reading (permission denied?)")
        }
        defer { try? handle.close() }
        let data: Data
        do {
            data = try handle.read(upToCount: limit + 1) ?? Data()
        } catch {
            throw unreadable("cannot be read: \(error.localizedDescription)")
        }
        guard data.count <= limit else {
            throw unreadable("is larger than \(limit) bytes; \(kind)s are limited to \(limit) bytes")
        }
        return [UInt8](data)
    }
}
