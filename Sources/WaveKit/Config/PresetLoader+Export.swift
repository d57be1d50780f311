extension PresetLoader {
    /// The merged document of `reference` (a preset file or a bundled name) as `presets show`
    /// prints it: the `extends` chain resolved into plain keys as the loader merges them (`extends`
    /// itself gone, a null dropping the inherited value, `name` filled in from the file name when
    /// the file gives none), in `writtenOrder`. The preset is loaded first, so a preset that
    /// would not render is refused with its located problems.
    public func mergedDocument(_ reference: String) throws(WaveError) -> JSONNode {
        _ = try load(reference)
        return PresetLoader.writtenOrder(try resolve(reference).root)
    }

    /// The files with which the preset `reference` renders from any folder as it renders where it
    /// is: `NAME.json` (NAME the file name without .json) holding the merged document, so it no
    /// longer depends on the presets it extended, with `"$schema": "./schema.json"`; the rider
    /// image and a label font named by a relative path, copied beside it (the path in the
    /// document rewritten relative to the export where it had to change); and `schema.json`.
    public func exportedFiles(_ reference: String) throws(WaveError) -> [BundledPresets.ExportedFile] {
        _ = try load(reference)
        let resolved = try resolve(reference)
        let name = resolved.defaultName
        var root = resolved.root
        var copies: [BundledPresets.ExportedFile] = []
        let reserved = [name + ".json", BundledPresets.schemaFileName]
        for key in PresetLoader.fileKeys(in: root) {
            guard let path = KeyPathExpression(parsing: key),
                  case let .string(named)? = root.node(at: path.components)?.value, !named.isEmpty, !DataURI.isDataURI(named) else { continue }
            // A font named by family, or by absolute path, is found the same way from anywhere.
            if key.hasPrefix("label.font"), !Label.isFontPath(named) || named.hasPrefix("/") { continue }
            let source = PresetLoader.fileSource(of: key, in: resolved, overrides: [])
            let bytes: [UInt8]
            if let folder = source.folder {
                let kind = key == "rider.image" ? "image" : "font"
                let limit = key == "rider.image" ? PresetLoader.maximumImageFileSize : PresetLoader.maximumFontFileSize
                bytes = try BoundedFile.read(PresetLoader.path(named, in: folder), limit: limit, kind: kind)
            } else {
                guard let b = bundledAssets[named] else { continue }
                bytes = b
            }
            var target = named
            let parts = named.split(separator: "/", omittingEmptySubsequences: false)
            if named.hasPrefix("/") || parts.contains(where: { $0.isEmpty || $0 == "." || $0 == ".." }) {
                target = PathText.lastComponent(of: named)
            }
            if reserved.contains(target) || copies.contains(where: { $0.path == target }) {
                target = "assets/" + PathText.lastComponent(of: named)
            }
            if target != named { try? root.set(JSONNode(.string(target)), at: path) }
            copies.append(BundledPresets.ExportedFile(path: target, bytes: bytes))
        }
        if case var .object(members) = root.value {
            members.removeAll { $0.key == "$schema" }
            members.insert(("$schema", JSONNode(.string("./" + BundledPresets.schemaFileName))), at: 0)
            root = JSONNode(.object(members))
        }
        let text = PresetLoader.writtenOrder(root).serialized(indent: 2) + "\n"
        return [BundledPresets.ExportedFile(path: name + ".json", bytes: Array(text.utf8))] + copies
            + [BundledPresets.ExportedFile(path: BundledPresets.schemaFileName, bytes: Array(BundledPresets.schema.utf8))]
    }

    /// `root` with its keys in the order the schema (presets/schema.json) lists them, at every
    /// level the format defines: annotations (`$schema`, `_…`) first as they came, then the
    /// format's keys (`WaveConfig.topLevelKeys`, `layerKeys`, …), then any others as they came.
    public static func writtenOrder(_ root: JSONNode) -> JSONNode {
        func order(_ node: JSONNode, _ keys: [String], children: [String: ([String], Bool)] = [:]) -> JSONNode {
            guard case let .object(members) = node.value else { return node }
            let rank = { (key: String) -> Int in
                if KeyAdvice.isAnnotation(key) { return -1 }
                return keys.firstIndex(of: key) ?? keys.count
            }
            let sorted = members.enumerated().sorted { a, b in
                let (ra, rb) = (rank(a.element.key), rank(b.element.key))
                return ra != rb ? ra < rb : a.offset < b.offset
            }.map { member -> (key: String, value: JSONNode) in
                guard let (childKeys, isArray) = children[member.element.key] else { return member.element }
                var value = member.element.value
                if isArray, case let .array(items) = value.value {
                    value = JSONNode(.array(items.map { order($0, childKeys) }), line: value.line, column: value.column)
                } else if !isArray {
                    value = order(value, childKeys, children: member.element.key == "label" ? ["stroke": (WaveConfig.strokeKeys, false)] : [:])
                }
                return (member.element.key, value)
            }
            return JSONNode(.object(sorted), line: node.line, column: node.column)
        }
        return order(root, WaveConfig.topLevelKeys, children: [
            "layers": (WaveConfig.layerKeys, true), "border": (WaveConfig.borderKeys, false),
            "level": (WaveConfig.rampLevelKeys + WaveConfig.tideLevelKeys, false),
            "rider": (WaveConfig.riderKeys, false), "label": (WaveConfig.labelKeys, false),
            "gif": (WaveConfig.gifKeys, false), "webp": (WaveConfig.webpKeys, false), "apng": (WaveConfig.apngKeys, false),
            "live": (WaveConfig.liveKeys, false),
        ])
    }
}
