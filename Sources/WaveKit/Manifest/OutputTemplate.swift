import WavePlatform

/// An output path template: literal text with `{name}`, `{variant}`, `{scale}`, `{density}`,
/// `{level}` and `{format}` fields.
public struct OutputTemplate: Sendable, Equatable {
    /// A field filled in for each output.
    public enum Field: String, Sendable, CaseIterable {
        case name, variant, scale, density, level, format
    }

    /// A run of literal text, or a field.
    public enum Segment: Sendable, Equatable {
        case text(String)
        case field(Field)
    }

    public var segments: [Segment]
    /// The template as written in the manifest.
    public var source: String

    /// Reads a template such as `out/{name}{scale}.{format}`, or says what is wrong with it.
    public static func parse(_ text: String) -> Result<OutputTemplate, TemplateError> {
        var segments: [Segment] = []
        var literal = ""
        var rest = Substring(text)
        while let c = rest.first {
            if c == "}" { return .failure(TemplateError("a \"}\" without a \"{\" in \"\(text)\"")) }
            guard c == "{" else { literal.append(c); rest = rest.dropFirst(); continue }
            guard let close = rest.firstIndex(of: "}") else { return .failure(TemplateError("a \"{\" without a \"}\" in \"\(text)\"")) }
            let name = String(rest[rest.index(after: rest.startIndex)..<close])
            guard let field = Field(rawValue: name) else {
                let known = Field.allCases.map(\.rawValue)
                let hint = ManifestReader.suggestion(for: name, among: known).map { " (did you mean {\($0)}?)" }
                    ?? " (the fields are \(known.map { "{\($0)}" }.joined(separator: ", ")))"
                return .failure(TemplateError("unknown field {\(name)}\(hint)"))
            }
            if !literal.isEmpty { segments.append(.text(literal)); literal = "" }
            segments.append(.field(field))
            rest = rest[rest.index(after: close)...]
        }
        if !literal.isEmpty { segments.append(.text(literal)) }
        if text.hasSuffix("/") { return .failure(TemplateError("\"\(text)\" names a folder, not a file")) }
        return .success(OutputTemplate(segments: segments, source: text))
    }

    /// Why a template cannot be used.
    public struct TemplateError: Error, CustomStringConvertible {
        public var description: String
        init(_ d: String) { description = d }
    }

    /// Whether the template has `field`.
    public func uses(_ field: Field) -> Bool { segments.contains(.field(field)) }

    /// The extension when the template ends in literal text such as ".gif".
    public var literalExtension: String? {
        guard case let .text(t)? = segments.last, let dot = t.lastIndex(of: "."), !t[dot...].contains("/") else { return nil }
        let ext = String(t[t.index(after: dot)...])
        return ext.isEmpty ? nil : ext
    }

    /// The path for one output: every field replaced by its value ("" when it has none).
    public func render(_ values: [Field: String]) -> String {
        segments.map { s -> String in
            switch s {
            case let .text(t): return t
            case let .field(f): return values[f] ?? ""
            }
        }.joined()
    }

    /// "" for 1, "@2x", "@1.5x".
    public static func scaleText(_ scale: Double?) -> String {
        guard let scale, scale != 1 else { return "" }
        let rounded = (scale * 1000).rounded() / 1000
        return "@\(rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded))x"
    }

    /// Android's screen densities by scale (output pixels per preset pixel, 1 being mdpi's 160 dpi),
    /// the values `{density}` takes.
    public static let densities: [(scale: Double, name: String)] = [
        (0.75, "ldpi"), (1, "mdpi"), (1.5, "hdpi"), (2, "xhdpi"), (3, "xxhdpi"), (4, "xxxhdpi"),
    ]

    /// The Android density of `scale` ("xhdpi" for 2), nil when Android has none.
    public static func densityText(_ scale: Double) -> String? {
        densities.first { abs($0.scale - scale) < 1e-9 }?.name
    }

    /// "0.75 (ldpi), 1 (mdpi), …": the scales `{density}` takes, for messages.
    public static var densityList: String {
        densities.map { "\(JSONNode(.number($0.scale)).serialized()) (\($0.name))" }.joined(separator: ", ")
    }

    /// The level as a whole percent, zero-padded to 3: 0.3 → "030".
    public static func levelText(_ level: Double) -> String {
        NumberText.padded(Int((level * 100).rounded()), digits: 3)
    }
}

extension OutputTemplate.TemplateError: Equatable {}
