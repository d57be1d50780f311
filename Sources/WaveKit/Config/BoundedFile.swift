import Foundation

/// Reads input files safely: only regular files, never more than a limit, errors as `PresetError`.
enum BoundedFile {
    static func read(_ path: String, limit: Int, kind: String = "preset") throws(PresetError) -> [UInt8] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw .unreadable(file: path, reason: "no such file")
        }
        guard !isDirectory.boolValue else { throw .unreadable(file: path, reason: "is a directory, not \(kind == "image" ? "an" : "a") \(kind) file") }
        let attributes = try? FileManager.default.attributesOfItem(atPath: path)
        guard let type = attributes?[.type] as? FileAttributeType, type == .typeRegular else {
            throw .unreadable(file: path, reason: "is not a regular file")
        }
        if let size = attributes?[.size] as? Int, size > limit {
            throw .unreadable(file: path, reason: "is \(size) bytes; \(kind)s are limited to \(limit) bytes")
        }
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw .unreadable(file: path, reason: "cannot be opened for reading (permission denied?)")
        }
        defer { try? handle.close() }
        let data: Data
        do {
            data = try handle.read(upToCount: limit + 1) ?? Data()
        } catch {
            throw .unreadable(file: path, reason: "cannot be read: \(error.localizedDescription)")
        }
        guard data.count <= limit else {
            throw .unreadable(file: path, reason: "is larger than \(limit) bytes; \(kind)s are limited to \(limit) bytes")
        }
        return [UInt8](data)
    }
}
