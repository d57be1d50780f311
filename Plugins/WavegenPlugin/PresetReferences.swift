import Foundation

/// The files a preset reads besides itself, found at planning time so the build system knows to
/// render again when one changes: the parents it `extends` by file (and theirs), a rider's
/// `image` and a label's `font` named by path, each relative to the file that names it (as
/// docs/presets.md defines them). Bundled parents and fonts named by family are not files of the
/// package; they change with the `wavegen` executable, which is an input of every command anyway.
enum PresetReferences {
    static func files(of preset: URL) -> [URL] {
        var found: [URL] = []
        var visited: Set<String> = [preset.standardizedFileURL.path]
        var pending = [preset]
        while let file = pending.popLast() {
            guard let object = JSONValue.read(file)?.object else { continue }
            let folder = file.deletingLastPathComponent()
            if let parent = object["extends"]?.string, let parentFile = parentFile(parent, in: folder),
               visited.insert(parentFile.standardizedFileURL.path).inserted {
                found.append(parentFile)
                pending.append(parentFile)
            }
            if let image = object["rider"]?.object?["image"]?.string {
                found.append(resolve(image, in: folder))
            }
            if let font = object["label"]?.object?["font"]?.string, isFontFile(font) {
                found.append(resolve(font, in: folder))
            }
        }
        var seen: Set<String> = []
        return found.filter { seen.insert($0.standardizedFileURL.path).inserted }
    }

    /// The file an `extends` names, or nil for a bundled preset.
    private static func parentFile(_ reference: String, in folder: URL) -> URL? {
        if reference.contains("/") || reference.hasSuffix(".json") {
            return resolve(reference, in: folder)
        }
        let sameName = folder.appendingPathComponent(reference)
        var isFolder: ObjCBool = false
        let exists = FileManager.default.fileExists(atPath: sameName.path, isDirectory: &isFolder)
        return exists && !isFolder.boolValue ? sameName : nil
    }

    private static func isFontFile(_ font: String) -> Bool {
        font.contains("/") || [".ttf", ".otf", ".ttc"].contains { font.lowercased().hasSuffix($0) }
    }

    private static func resolve(_ path: String, in folder: URL) -> URL {
        path.hasPrefix("/") ? URL(fileURLWithPath: path) : folder.appendingPathComponent(path)
    }
}
