extension BundledPresets {
    /// The version of the bundled presets' look. `"extends": "NAME@N"` reads the bundled preset
    /// NAME as it was in version N (1 ≤ N ≤ this): the frozen copy presets/versions/NAME@M.json
    /// with the smallest M ≥ N, else the current NAME. Raise it when a bundled preset changes how
    /// it renders, after freezing the old look (presets/versions/README.md).
    public static let formatVersion = 1
}

extension PresetLoader {
    /// A bundled preset named with a version, `NAME@N`: its text, or a problem saying which versions
    /// there are. nil when `reference` has no `@` or no bundled preset (current or frozen) has the
    /// name before it.
    func versionedBundledText(_ reference: String) throws(WaveError) -> String? {
        guard let at = reference.lastIndex(of: "@") else { return nil }
        let name = String(reference[..<at]), version = String(reference[reference.index(after: at)...])
        let frozen = bundledVersions.keys.compactMap { key -> Int? in
            guard key.hasPrefix(name + "@") else { return nil }
            return Int(key.dropFirst(name.count + 1))
        }
        guard !name.isEmpty, bundled[name] != nil || !frozen.isEmpty else { return nil }
        let newest = bundledFormatVersion
        let known = newest == 1 ? "\(name)@1" : "\(name)@1 to \(name)@\(newest)"
        func problem(_ message: String) -> WaveError {
            WaveError(DocumentProblem(file: reference, message: message))
        }
        guard let n = Int(version), String(n) == version else {
            throw problem("\"\(version)\" is not a version: write a whole number after '@' (\(name) has \(known))")
        }
        guard n <= newest else {
            throw problem("bundled preset version \(n) is newer than this wavegen knows (\(name) has \(known)); a newer wavegen is needed")
        }
        guard n >= 1 else { throw problem("no version \(n) of \(name) (\(name) has \(known))") }
        if let m = frozen.filter({ $0 >= n }).min(), let text = bundledVersions["\(name)@\(m)"] { return text }
        if let text = bundled[name] { return text }
        throw problem("no version \(n) of \(name) (\(name) has \(known))")
    }

    /// The `extends` in the preset files of `reference`'s chain that name a bundled preset without
    /// a version ("orb", not "orb@1"), each at its value with `unpinnedAdvice`. Empty when the
    /// preset does not resolve (its problems are reported elsewhere).
    public func unpinnedExtends(_ reference: String) -> [DocumentProblem] {
        guard let resolved = try? resolve(reference) else { return [] }
        let chain = resolved.chain
        var found: [DocumentProblem] = []
        for i in chain.indices.dropFirst() where !resolved.bundledFiles.contains(chain[i].file) {
            let parent = chain[i - 1].file
            guard resolved.bundledFiles.contains(parent), bundled[parent] != nil else { continue }
            found.append(DocumentProblem(file: chain[i].file, keyPath: "extends", message: PresetLoader.unpinnedAdvice(parent, version: bundledFormatVersion))
                .at(chain[i].root["extends"]))
        }
        return found
    }

    /// A bare bundled name in `extends` ("orb"), which follows whatever the bundled preset looks like
    /// in the wavegen that reads it: the advice to pin it ("orb@1").
    public static func unpinnedAdvice(_ name: String, version: Int = BundledPresets.formatVersion) -> String {
        "follows the current bundled look of \(name); pin it with \"\(name)@\(version)\""
    }
}
