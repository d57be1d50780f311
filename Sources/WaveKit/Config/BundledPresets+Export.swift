extension BundledPresets {
    /// One file of an exported preset: its path relative to the folder it is written into, and its bytes.
    public struct ExportedFile: Sendable, Equatable {
        /// Relative to the export folder, with '/' between folders: `boat.json`, `assets/boat.png`.
        public var path: String
        public var bytes: [UInt8]

        public init(path: String, bytes: [UInt8]) {
            self.path = path
            self.bytes = bytes
        }
    }

    /// The name of the schema file `presets export` writes beside every preset.
    public static let schemaFileName = "schema.json"

    /// The files with which the bundled preset `name` renders from a folder exactly as it renders by
    /// name: `NAME.json` byte for byte, every bundled image its `extends` chain uses at the relative
    /// path the preset names (so the reference resolves beside the file), and `schema.json`, which
    /// its `"$schema"` names. nil when no bundled preset has that name.
    ///
    /// An `extends` stays a reference by name: from a preset file, a bundled name resolves to the
    /// bundled parent in any folder (unless a file of exactly that name, without `.json`, sits
    /// beside it), so the parent is not copied.
    public static func exportedFiles(_ name: String) -> [ExportedFile]? {
        guard let text = sources[name] else { return nil }
        var files = [ExportedFile(path: name + ".json", bytes: Array(text.utf8))]
        for image in imagePaths(name) {
            guard let bytes = decodedAssets[image] else { continue }
            files.append(ExportedFile(path: image, bytes: bytes))
        }
        files.append(ExportedFile(path: schemaFileName, bytes: Array(schema.utf8)))
        return files
    }

    /// Whether the bundled preset `name` names files beside it: images, or a `"$schema"` (so that
    /// its text alone, saved elsewhere, does not render or validate as it is).
    public static func refersToFiles(_ name: String) -> Bool {
        guard let text = sources[name], let root = try? JSONParser.parse(Array(text.utf8)) else { return false }
        return !imagePaths(name).isEmpty || root["$schema"] != nil
    }

    /// The bundled images that the bundled preset `name` and the presets it extends use, by path
    /// relative to presets/.
    static func imagePaths(_ name: String) -> [String] {
        guard let merged = try? PresetLoader(bundled: sources, bundledAssets: [:]).resolve(name).root,
              case let .string(path)? = merged["rider"]?["image"]?.value, assets[path] != nil else { return [] }
        return [path]
    }
}
