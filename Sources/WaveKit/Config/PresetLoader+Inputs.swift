import WavePlatform

extension PresetLoader {
    /// The files on disk a preset reads, in the order they are read: every file of its `extends`
    /// chain, then its rider image and its label font where the merged document (with `overrides`)
    /// names them by path. A file that is missing or broken is listed too, up to the first one that
    /// fails, so that a watcher notices when it is created or fixed. Bundled presets and their
    /// images are compiled in and are not listed. Never fails: a preset that cannot be read lists
    /// what was tried.
    public func inputFiles(_ reference: String, overrides: [PresetOverride] = []) -> [String] {
        var files: [String] = []
        guard var resolved = try? resolve(reference, reading: { files.append($0) }) else { return files }
        for o in overrides where !o.isTheme { try? resolved.root.set(o.value, at: o.path) }
        for key in PresetLoader.fileKeys(in: resolved.root) {
            guard let path = KeyPathExpression(parsing: key)?.components,
                  case let .string(named)? = resolved.root.node(at: path)?.value, !named.isEmpty, !DataURI.isDataURI(named) else { continue }
            if key.hasPrefix("label.font"), !Label.isFontPath(named) { continue }
            guard let folder = PresetLoader.fileSource(of: key, in: resolved, overrides: overrides).folder else { continue }
            let full = PresetLoader.path(named, in: folder)
            if !files.contains(full) { files.append(full) }
        }
        return files
    }

    /// The key paths of `root` that may name files: `rider.image`, and `label.font` or each entry
    /// of its list.
    static func fileKeys(in root: JSONNode) -> [String] {
        guard case let .array(items)? = root.node(at: [.key("label"), .key("font")])?.value else { return ["rider.image", "label.font"] }
        return ["rider.image"] + items.indices.map { "label.font[\($0)]" }
    }
}
