import Foundation

/// Finds, reads and resolves presets: a file path or a bundled name, `extends` chains merged,
/// then decoded into a `WaveConfig`.
public struct PresetLoader: Sendable {
    /// The largest preset file read, in bytes.
    public static let maximumFileSize = 1 << 20

    /// Bundled presets by name, JSON text.
    public var bundled: [String: String]

    public init(bundled: [String: String] = BundledPresets.sources) {
        self.bundled = bundled
    }

    /// A preset's JSON with its `extends` chain merged, and the name it is known by.
    public struct Resolved: Sendable {
        public var root: JSONNode
        public var file: String
        public var defaultName: String
    }

    /// Loads `reference` (a path, or a bundled name when no such file exists) into a config,
    /// with `overrides` (key path → JSON value) applied last.
    public func load(_ reference: String, overrides: [PresetOverride] = []) throws(PresetError) -> WaveConfig {
        var resolved = try resolve(reference, chain: [])
        for o in overrides {
            do {
                try resolved.root.set(o.value, at: o.path)
            } catch {
                throw .invalid(file: resolved.file, problems: [PresetProblem(path: o.path.description, message: "cannot be set: \(error.message)")])
            }
        }
        switch WaveConfig.decode(resolved.root, defaultName: resolved.defaultName) {
        case let .success(config): return config
        case let .failure(p): throw .invalid(file: resolved.file, problems: p.problems)
        }
    }

    /// Reads and merges `reference` and everything it extends.
    public func resolve(_ reference: String, relativeTo base: String? = nil, chain: [String]) throws(PresetError) -> Resolved {
        let (file, text, defaultName) = try read(reference, relativeTo: base)
        if chain.contains(file) {
            throw .invalid(file: chain[0], problems: [PresetProblem(path: "extends", message: "cycle: \((chain + [file]).joined(separator: " → "))")])
        }
        let root: JSONNode
        do {
            root = try JSONParser.parse(text)
        } catch {
            throw .syntax(file: file, line: error.line, column: error.column, message: error.message)
        }
        // Every file in a chain must itself be a valid preset, so each error names its own file.
        if case let .failure(p) = WaveConfig.decode(root, defaultName: defaultName) {
            throw .invalid(file: file, problems: p.problems)
        }
        guard case let .string(parent)? = root["extends"]?.value else {
            return Resolved(root: root, file: file, defaultName: defaultName)
        }
        let baseDir = file.hasPrefix("bundled:") ? nil : (file as NSString).deletingLastPathComponent
        var merged = try resolve(parent, relativeTo: baseDir, chain: chain + [file])
        merged.root = merged.root.merging(root.removing("extends"))
        merged.file = file
        merged.defaultName = defaultName
        if merged.root["name"] == nil || root["name"] == nil {
            merged.root = merged.root.merging(JSONNode(.object([("name", JSONNode(.string(defaultName)))])))
        }
        return merged
    }

    /// The file's display name, its text and the preset name it defaults to.
    private func read(_ reference: String, relativeTo base: String?) throws(PresetError) -> (String, [UInt8], String) {
        let path = base.map { reference.hasPrefix("/") ? reference : ($0.isEmpty ? reference : $0 + "/" + reference) } ?? reference
        let looksLikePath = reference.contains("/") || reference.hasSuffix(".json")
        if FileManager.default.fileExists(atPath: path) || looksLikePath {
            let bytes = try BoundedFile.read(path, limit: PresetLoader.maximumFileSize)
            let name = ((path as NSString).lastPathComponent as NSString).deletingPathExtension
            return (path, bytes, name)
        }
        if let text = bundled[reference] {
            return (reference, Array(text.utf8), reference)
        }
        throw .unknownPreset(name: reference, known: bundled.keys.sorted())
    }
}

/// One `--set key.path=value` override.
public struct PresetOverride: Sendable, Equatable {
    public var path: KeyPathExpression
    public var value: JSONNode

    public init(path: KeyPathExpression, value: JSONNode) {
        self.path = path
        self.value = value
    }

    /// Parses `layers[0].color=#FF0000`; the value is JSON when it parses as JSON, else a string.
    public init?(parsing text: String) {
        guard let eq = text.firstIndex(of: "="), let path = KeyPathExpression(parsing: String(text[..<eq])) else { return nil }
        let raw = String(text[text.index(after: eq)...])
        self.path = path
        self.value = (try? JSONParser.parse(raw)) ?? JSONNode(.string(raw))
    }
}

/// A key path into a preset: `layers[0].color`.
public struct KeyPathExpression: Sendable, Equatable, CustomStringConvertible {
    public enum Component: Sendable, Equatable {
        case key(String)
        case index(Int)
    }

    public var components: [Component]

    public init?(parsing text: String) {
        var components: [Component] = []
        for part in text.split(separator: ".", omittingEmptySubsequences: false) {
            var rest = Substring(part)
            guard let nameEnd = rest.firstIndex(of: "[") ?? Optional(rest.endIndex) else { return nil }
            let name = rest[..<nameEnd]
            guard !name.isEmpty else { return nil }
            components.append(.key(String(name)))
            rest = rest[nameEnd...]
            while rest.hasPrefix("[") {
                guard let close = rest.firstIndex(of: "]"), let i = Int(rest[rest.index(after: rest.startIndex)..<close]), i >= 0 else { return nil }
                components.append(.index(i))
                rest = rest[rest.index(after: close)...]
            }
            guard rest.isEmpty else { return nil }
        }
        guard !components.isEmpty else { return nil }
        self.components = components
    }

    public var description: String {
        var s = ""
        for c in components {
            switch c {
            case let .key(k): s += s.isEmpty ? k : "." + k
            case let .index(i): s += "[\(i)]"
            }
        }
        return s
    }
}

struct OverrideError: Error { var message: String }

extension JSONNode {
    /// `self` with `other`'s members merged in: objects merge key by key, everything else (arrays included) replaces.
    func merging(_ other: JSONNode) -> JSONNode {
        guard case var .object(mine) = value, case let .object(theirs) = other.value else { return other }
        for (key, node) in theirs {
            if let i = mine.firstIndex(where: { $0.key == key }) {
                mine[i].value = mine[i].value.merging(node)
            } else {
                mine.append((key, node))
            }
        }
        return JSONNode(.object(mine), line: line, column: column)
    }

    func removing(_ key: String) -> JSONNode {
        guard case let .object(members) = value else { return self }
        return JSONNode(.object(members.filter { $0.key != key }), line: line, column: column)
    }

    mutating func set(_ newValue: JSONNode, at path: KeyPathExpression) throws(OverrideError) {
        try set(newValue, components: path.components[...])
    }

    private mutating func set(_ newValue: JSONNode, components: ArraySlice<KeyPathExpression.Component>) throws(OverrideError) {
        guard let first = components.first else { self = newValue; return }
        let rest = components.dropFirst()
        switch first {
        case let .key(k):
            if case .null = value { value = .object([]) }
            guard case var .object(members) = value else { throw OverrideError(message: "\"\(k)\" is inside \(value.kindName)") }
            if let i = members.firstIndex(where: { $0.key == k }) {
                try members[i].value.set(newValue, components: rest)
            } else {
                var child = JSONNode(.null)
                try child.set(newValue, components: rest)
                members.append((k, child))
            }
            value = .object(members)
        case let .index(i):
            guard case var .array(items) = value else { throw OverrideError(message: "[\(i)] is not inside an array") }
            guard i < items.count else { throw OverrideError(message: "index \(i) is out of range (there are \(items.count))") }
            try items[i].set(newValue, components: rest)
            value = .array(items)
        }
    }
}
