import WaveKit
import WaveRender
import WaveBuild

/// Options shared by the commands that load a preset: overrides and their shortcuts.
enum PresetOptions {
    static let specs: [OptionSpec] = [
        OptionSpec(names: ["--set"], value: "key=value", help: "Override a preset key by its path, e.g. layers[0].color=#FF0000.", repeatable: true),
        OptionSpec(names: ["--size"], value: "WxH", help: "Shortcut for size=[W,H]."),
        OptionSpec(names: ["--scale"], value: "n", help: "Shortcut for scale=n (2 for @2x)."),
        OptionSpec(names: ["--fps"], value: "n", help: "Shortcut for fps=n."),
        OptionSpec(names: ["--level"], value: "0…1", help: "Shortcut for level=n."),
        OptionSpec(names: ["--background"], value: "color", help: "Shortcut for background=color (or transparent)."),
        OptionSpec(names: ["--theme"], value: "light|dark", help: "light, or dark: the preset's \"dark\" colors, applied before --set and its shortcuts.",
                   defaultText: "light", completion: .words(WaveConfig.themes)),
    ]

    /// The default preset rendered when none is named.
    static let defaultPreset = "classic"

    /// The overrides given on the command line, in the order the keys are applied.
    static func overrides(_ a: ParsedArguments) throws(WaveError) -> [PresetOverride] {
        var result: [PresetOverride] = []
        func add(_ text: String, from option: String) throws(WaveError) {
            guard var o = PresetOverride(parsing: text) else {
                throw .usage("\(option) expects key=value with a key path like layers[0].color, got '\(text)'")
            }
            // A value meant as an object or array must be JSON; a slip would otherwise become a string.
            let raw = text.drop { $0 != "=" }.dropFirst()
            if let first = raw.first, first == "{" || first == "[" {
                do {
                    _ = try JSONParser.parse(Array(raw.utf8))
                } catch {
                    // Failing at its second character, it was likely meant as text ("{percent} %").
                    let hint = error.column == 2 ? "; a text starting with \(raw.first!) must be quoted as a JSON string: \(option) '\(o.path)=\"\(raw)\"'" : ""
                    throw .usage("\(option) \(o.path): the value is not valid JSON (column \(error.column): \(error.message))\(hint)")
                }
            }
            o.origin = PresetOverride.Origin(file: option)
            result.append(o)
        }
        /// A shortcut's override, named by the option the user typed.
        func shortcut(_ key: String, _ value: JSONNode, from option: String) {
            result.append(PresetOverride(key, value, origin: PresetOverride.Origin(file: option)))
        }
        if let theme = a.value("--theme") {
            guard WaveConfig.themes.contains(theme) else { throw .usage("--theme expects light or dark, got '\(theme)'") }
            result.append(.theme(theme))
        }
        if let s = a.value("--size") {
            let parts = s.lowercased().split(separator: "x")
            guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]) else {
                throw .usage("--size expects WxH in whole pixels, e.g. 128x128, got '\(s)'")
            }
            try add("size=[\(w),\(h)]", from: "--size")
        }
        for (option, key) in [("--scale", "scale"), ("--fps", "fps"), ("--level", "level")] {
            if let v = a.value(option) {
                guard let n = Double(v), n.isFinite else { throw .usage("\(option) expects a number, got '\(v)'") }
                if option == "--level", n > 1, n <= 100 {
                    throw .usage("--level is a fraction of the height from 0 to 1 (\(NumberText.decimal(n / 100, places: 4)) for \(v) %), got \(v)")
                }
                shortcut(key, JSONNode(.number(n)), from: option)
            }
        }
        if let v = a.value("--background") { shortcut("background", JSONNode(.string(v)), from: "--background") }
        for s in a.values["--set"] ?? [] {
            let key = s.prefix { $0 != "=" }
            let parts = key.split(separator: ".", omittingEmptySubsequences: false).count + key.filter { $0 == "[" }.count
            guard parts <= KeyPathExpression.maximumParts else { throw .usage("--set: " + KeyPathExpression.tooDeep(parts)) }
            try add(s, from: "--set")
        }
        return result
    }

    static func load(_ reference: String, _ a: ParsedArguments) throws(WaveError) -> WaveConfig {
        let overrides = try overrides(a)
        let config = try RenderPipeline().load(reference, overrides: overrides)
        ProtectedFiles.protectInputs(of: reference, overrides: overrides)
        return config
    }
}
