/// A preset's dark twin: the optional `"dark"` object of color overrides by key path, applied by
/// `--theme dark` (or a manifest's `"theme": "dark"`) after the preset's own values and before
/// every other override.
extension WaveConfig {
    /// The color key paths a `dark` object may set; `layers[N].color` stands for every layer.
    public static let darkColorKeys = ["background", "layers[N].color", "border.color", "label.color",
                                       "label.colorOnWater", "label.stroke.color", "gif.matte"]

    /// The themes a preset renders in.
    public static let themes = ["light", "dark"]

    /// The key path a problem with the `dark` entry `key` is reported at: `dark["layers[1].color"]`
    /// (the key quoted as a JSON string, since it is a key path itself).
    public static func darkKeyPath(_ key: String) -> String {
        "dark[" + JSONNode(.string(key)).brief + "]"
    }

    /// The `dark` key a problem's key path (`dark["…"]`) names, if it is one.
    static func darkKey(inProblemPath keyPath: String) -> String? {
        guard keyPath.hasPrefix("dark[\""), keyPath.hasSuffix("\"]"),
              let node = try? JSONParser.parse(Array(keyPath.dropFirst(5).dropLast().utf8)),
              case let .string(key) = node.value else { return nil }
        return key
    }

    /// Why the `dark` entry `key` cannot apply to the preset `root` (nil when it can): it must name a
    /// color key, a layer the preset has, and an object the preset has (a dark color cannot add a
    /// border, a label or a stroke the light preset lacks).
    static func darkKeyProblem(_ key: String, in root: JSONNode) -> String? {
        let allowed = "\"dark\" holds only colors: " + darkColorKeys.joined(separator: ", ")
        guard let path = KeyPathExpression(parsing: key) else {
            return "is not a key path (write e.g. \"background\" or \"layers[0].color\"); \(allowed)"
        }
        let c = path.components
        if c.count == 3, c[0] == .key("layers"), case let .index(i) = c[1], c[2] == .key("color") {
            guard case let .array(items)? = root["layers"]?.value else {
                return "the preset has no \"layers\" of its own to color (the default layer takes no dark color)"
            }
            guard i < items.count else {
                let range = items.count == 1 ? "is 1 layer (layers[0])" : "are \(items.count) layers (layers[0]…layers[\(items.count - 1)])"
                return "names no layer: there \(range)"
            }
            return nil
        }
        let text = path.description
        guard darkColorKeys.contains(text) else {
            return "\(text) is not a color key; \(allowed)"
        }
        // The object that holds the color must be there already.
        let holder = Array(c.dropLast())
        if !holder.isEmpty, holder != [.key("gif")], root.node(at: holder) == nil {
            return "the preset has no \(KeyPathExpression(components: holder)) to color"
        }
        return nil
    }

    /// Whether the dark entry `key` may be a gradient (the background's and the layers' colors).
    static func takesGradient(_ key: String) -> Bool {
        key == "background" || (key.hasPrefix("layers[") && key.hasSuffix("].color"))
    }

    /// Whether `value` is a color the dark entry `key` takes (`gif.matte` must be opaque).
    static func darkValueIsColor(_ value: JSONNode, key: String) -> Bool {
        guard case let .string(s) = value.value else { return false }
        if takesGradient(key) { return Paint(parsing: s) != nil }
        guard let c = RGBA(parsing: s) else { return false }
        return key != "gif.matte" || c.a == 255
    }

    /// Checks the `dark` object of `root`: every key a color key path the preset has, every value a
    /// color. Reported at `dark["KEY"]`.
    static func checkDark(_ root: JSONNode, reader r: inout PresetReader) {
        guard let node = root["dark"], r.object(node, at: "dark"), case let .object(members) = node.value else { return }
        for (key, value) in members where !KeyAdvice.isAnnotation(key) {
            let at = darkKeyPath(key)
            if let problem = darkKeyProblem(key, in: root) {
                r.fail(at, problem)
                continue
            }
            if takesGradient(key) {
                _ = r.paint(value, at: at, default: .flat(.transparent))
            } else if let c = r.color(value, at: at, default: .transparent), key == "gif.matte", c.a != 255 {
                r.fail(at, "must be an opaque color, got \(c)")
            }
        }
    }
}

extension PresetLoader {
    /// The theme the overrides choose: the last `theme` override ("light" when there is none), and
    /// that override.
    static func theme(in overrides: [PresetOverride]) throws(WaveError) -> (name: String, override: PresetOverride?) {
        guard let o = overrides.last(where: { $0.isTheme }) else { return ("light", nil) }
        guard case let .string(name) = o.value.value, WaveConfig.themes.contains(name) else {
            throw WaveError(o.problem("expected \"light\" or \"dark\", got \(o.value.brief)"))
        }
        return (name, o)
    }

    /// The dark twin of `resolved` as overrides, each from the file of the chain that holds it and
    /// at its position there. Entries that cannot apply are left out; the decoder reports them.
    static func darkOverrides(_ resolved: Resolved, chosenBy o: PresetOverride) throws(WaveError) -> [PresetOverride] {
        // A `dark` that is not an object is the decoder's to report, at its position.
        if let node = resolved.root["dark"], case .object = node.value {} else if resolved.root["dark"] != nil { return [] }
        guard case let .object(members)? = resolved.root["dark"]?.value else {
            let message = "has no \"dark\" object, so it has no dark theme; add one (docs/presets.md, \"Dark twin\") or drop \(o.origin.line > 0 ? "the theme" : "--theme dark")"
            if o.origin.line > 0 { throw WaveError(o.problem("the preset \(resolved.file) \(message)")) }
            throw WaveError(DocumentProblem(file: resolved.file, message: message))
        }
        var result: [PresetOverride] = []
        for (key, value) in members where !KeyAdvice.isAnnotation(key) {
            guard WaveConfig.darkKeyProblem(key, in: resolved.root) == nil, WaveConfig.darkValueIsColor(value, key: key),
                  let path = KeyPathExpression(parsing: key) else { continue }
            let file = resolved.chain.last { $0.root["dark"]?[key] != nil }?.file ?? resolved.file
            let origin = PresetOverride.Origin(file: file, keyPath: WaveConfig.darkKeyPath(key), line: value.line, column: value.column)
            result.append(PresetOverride(path: path, value: value, origin: origin))
        }
        return result
    }

    /// The components a problem's key path names: `dark["KEY"]` is the member KEY of `dark`.
    static func components(ofProblemPath keyPath: String) -> [KeyPathExpression.Component] {
        if let key = WaveConfig.darkKey(inProblemPath: keyPath) { return [.key("dark"), .key(key)] }
        return KeyPathExpression(parsing: keyPath)?.components ?? []
    }
}

extension PresetOverride {
    /// Whether this is the pseudo-override that chooses a theme (`--theme`, a manifest's `"theme"`).
    public var isTheme: Bool { path.components == [.key("theme")] }

    /// `--theme NAME` as an override.
    public static func theme(_ name: String, origin: Origin = Origin(file: "--theme")) -> PresetOverride {
        PresetOverride("theme", JSONNode(.string(name)), origin: origin)
    }
}
