import Foundation
import Testing
@testable import WaveKit

/// presets/schema.json and the loader must describe the same format: the same keys at every level
/// and the same keywords.
@Suite struct SchemaTests {
    let schema: JSONNode

    init() throws {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("presets/schema.json")
        schema = try JSONParser.parse(Array(try Data(contentsOf: url)))
    }

    func keys(_ node: JSONNode?) -> [String] {
        guard case let .object(members)? = node?["properties"]?.value else { return [] }
        return members.map(\.key)
    }

    func definition(_ name: String) -> JSONNode? { schema["$defs"]?[name] }

    func strings(_ node: JSONNode?) -> [String] {
        guard case let .array(items)? = node?.value else { return [] }
        return items.compactMap { if case let .string(s) = $0.value { return s } else { return nil } }
    }

    @Test func keysMatchTheLoader() {
        #expect(keys(schema) == WaveConfig.topLevelKeys)
        #expect(keys(definition("layer")) == WaveConfig.layerKeys)
        #expect(keys(schema["properties"]?["border"]) == WaveConfig.borderKeys)
        #expect(keys(definition("levelRamp")) == WaveConfig.rampLevelKeys)
        #expect(keys(definition("levelTide")) == WaveConfig.tideLevelKeys)
        #expect(keys(schema["properties"]?["gif"]) == WaveConfig.gifKeys)
        #expect(keys(schema["properties"]?["webp"]) == WaveConfig.webpKeys)
        #expect(keys(schema["properties"]?["rider"]) == WaveConfig.riderKeys)
        #expect(keys(schema["properties"]?["label"]) == WaveConfig.labelKeys)
        #expect(keys(schema["properties"]?["label"]?["properties"]?["stroke"]) == WaveConfig.strokeKeys)
    }

    /// The `dark` object's key pattern takes exactly the color key paths the loader applies.
    @Test func darkKeysMatchTheLoader() throws {
        guard case let .string(pattern)? = schema["properties"]?["dark"]?["propertyNames"]?["pattern"]?.value else {
            Issue.record("no dark key pattern"); return
        }
        let regex = try NSRegularExpression(pattern: pattern)
        func matches(_ text: String) -> Bool { regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil }
        let root = try JSONParser.parse(Array(##"{"layers": [{}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}], "border": {}, "label": {"stroke": {}}}"##.utf8))
        for key in WaveConfig.darkColorKeys.flatMap({ $0 == "layers[N].color" ? ["layers[0].color", "layers[11].color"] : [$0] }) {
            #expect(matches(key), "schema refuses \(key)")
            #expect(WaveConfig.darkKeyProblem(key, in: root) == nil, "loader refuses \(key)")
        }
        for key in ["fps", "layers[0].opacity", "layers.color", "label", "border.width", "gif.edges", "Background", "layers[01].color"] {
            #expect(!matches(key), "schema accepts \(key)")
            if key != "layers[01].color" { #expect(WaveConfig.darkKeyProblem(key, in: root) != nil, "loader accepts \(key)") }
        }
    }

    /// The `extends` pattern takes every path and every bundled name the loader reads, pinned or
    /// not, and refuses a name whose version is not a whole number from 1, as the loader does.
    @Test func extendsPatternMatchesTheLoader() throws {
        guard case let .string(pattern)? = schema["properties"]?["extends"]?["pattern"]?.value else {
            Issue.record("no extends pattern"); return
        }
        let regex = try NSRegularExpression(pattern: pattern)
        func matches(_ text: String) -> Bool { regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil }
        let loader = PresetLoader()
        for good in ["orb", "orb@1", "classic@\(BundledPresets.formatVersion)", "orb@12", "dir/x.json", "x.json", "../a@b/c.json", "x@y.json", "my-base"] {
            #expect(matches(good), "schema refuses \(good)")
        }
        for bad in ["orb@x", "orb@0", "orb@01", "orb@", "orb@-1", "orb@1.0"] {
            #expect(!matches(bad), "schema accepts \(bad)")
            #expect(throws: WaveError.self, "loader reads \(bad)") { _ = try loader.versionedBundledText(bad) }
        }
        #expect(try loader.versionedBundledText("orb@\(BundledPresets.formatVersion)") != nil)
    }

    @Test func keywordsMatchTheLoader() {
        let p = schema["properties"]
        guard case let .array(shapeForms)? = p?["shape"]?["anyOf"]?.value, shapeForms.count == 2 else {
            Issue.record("shape is not a keyword or a path object")
            return
        }
        #expect(strings(shapeForms[0]["enum"]) == WaveConfig.shapeKeywords)
        #expect(strings(shapeForms[1]["required"]) == ["path"])
        #expect(shapeForms[1]["properties"].map { node -> [String] in
            guard case let .object(members) = node.value else { return [] }
            return members.map(\.key)
        } == WaveConfig.shapePathKeys)
        #expect(strings(shapeForms[1]["properties"]?["fillRule"]?["enum"]) == ShapePath.FillRule.allCases.map(\.rawValue))
        #expect(strings(p?["gif"]?["properties"]?["edges"]?["enum"]) == GIFOptions.Edges.allCases.map(\.rawValue))
        #expect(strings(definition("levelRamp")?["properties"]?["ease"]?["enum"]) == LevelAnimation.Ease.allCases.map(\.rawValue))
        #expect(strings(p?["label"]?["properties"]?["position"]?["enum"]) == Label.Position.allCases.map(\.rawValue))
    }

    /// The schema's color patterns (written by scripts/dev/color-schema) accept what the loader reads as
    /// a color and refuse the rest, for every input of CSSColorTests, and an opaque color only when
    /// the loader reads it opaque.
    @Test func colorPatternsMatchTheLoader() {
        func patterns(_ name: String) -> [NSRegularExpression] {
            guard case let .array(items)? = definition(name)?["anyOf"]?.value else { return [] }
            return items.compactMap {
                guard case let .string(p)? = $0["pattern"]?.value else { return nil }
                return try? NSRegularExpression(pattern: p)
            }
        }
        func matches(_ regexes: [NSRegularExpression], _ text: String) -> Bool {
            regexes.contains { $0.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil }
        }
        let color = patterns("color"), opaque = patterns("opaqueColor")
        #expect(color.count == 2 && opaque.count == 2)
        for (text, value) in CSSColorTests.accepted {
            #expect(matches(color, text), "schema refuses \(text)")
            if matches(opaque, text) { #expect(value.a == 255, "schema calls \(text) opaque") }
        }
        for text in CSSColorTests.rejected {
            #expect(!matches(color, text), "schema accepts \(text)")
        }
        for name in CSSColor.namedColors.map(\.name) + ["transparent"] {
            #expect(matches(color, name) && matches(color, name.uppercased()), "\(name)")
            #expect(matches(opaque, name) == (name != "transparent"), "\(name)")
        }
        for text in ["#FFF", "#FFFF", "#FFFFFF", "#ffffffff", "rgb(1, 2, 3)", "rgba(1, 2, 3, 1)", "rgb(1 2 3 / 100%)", "hsl(120deg 50% 50%)"] {
            #expect(matches(opaque, text), "\(text)")
        }
    }

    @Test func everyObjectRefusesUnknownKeysButAllowsComments() {
        for node in [schema, definition("layer"), definition("levelRamp"), definition("levelTide"), schema["properties"]?["border"],
                     schema["properties"]?["gif"], schema["properties"]?["webp"], schema["properties"]?["rider"], schema["properties"]?["label"]] {
            #expect(node?["additionalProperties"]?.value == .bool(false))
            #expect(node?["patternProperties"]?["^[$_]"] != nil)
        }
    }
}

/// The defaults presets/schema.json and docs/presets.md give are the decoder's: a preset that sets
/// a key to its stated default decodes to the same config as one that leaves the key out.
@Suite struct DocumentedDefaultsTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Where a key lives, and the smallest preset in which it applies (the key is set inside it).
    struct Place {
        var prefix: [KeyPathExpression.Component]
        var base: String
    }

    /// The place of a key of each part of the format (a schema object or a docs section).
    static let places: [String: Place] = [
        "top": Place(prefix: [], base: "{}"),
        "border": Place(prefix: [.key("border")], base: ##"{"border": {"color": "#000000"}}"##),
        "rider": Place(prefix: [.key("rider")], base: #"{"rider": {"image": "x.png"}}"#),
        "label": Place(prefix: [.key("label")], base: #"{"label": {}}"#),
        "stroke": Place(prefix: [.key("label"), .key("stroke")], base: ##"{"label": {"stroke": {"color": "#000000"}}}"##),
        "gif": Place(prefix: [.key("gif")], base: #"{"gif": {}}"#),
        "webp": Place(prefix: [.key("webp")], base: #"{"webp": {}}"#),
        "apng": Place(prefix: [.key("apng")], base: #"{"apng": {}}"#),
        "layer": Place(prefix: [.key("layers"), .index(0)], base: ##"{"layers": [{"color": "#000000"}]}"##),
        "levelRamp": Place(prefix: [.key("level")], base: #"{"level": {}}"#),
        "levelTide": Place(prefix: [.key("level")], base: #"{"level": {"base": 0.5, "tide": 0.1}}"#),
    ]

    func decode(_ root: JSONNode) -> WaveConfig? {
        guard case let .success(config) = WaveConfig.decode(root, defaultName: "p", images: { _ in .success(testRiderImage()) }) else { return nil }
        return config
    }

    /// Whether `value` is the default of `key` in `place`: the base preset with the key set to it
    /// decodes to the config of the base without it (a rounded shape for `cornerRadius`).
    func isDefault(_ value: JSONNode, key: String, in place: Place) throws -> Bool {
        var base = try JSONParser.parse(Array(place.base.utf8))
        if place.prefix.isEmpty, key == "cornerRadius" { try base.set(JSONNode(.string("rounded")), at: KeyPathExpression(components: [.key("shape")])) }
        var explicit = base
        try explicit.set(value, at: KeyPathExpression(components: place.prefix + [.key(key)]))
        guard let without = decode(base), let with = decode(explicit) else { return false }
        return without == with
    }

    @Test func schemaDefaultsAreTheDecoders() throws {
        let schema = try JSONParser.parse(Array(try Data(contentsOf: Self.root.appendingPathComponent("presets/schema.json"))))
        let objects: [(String, JSONNode?)] = [
            ("top", schema), ("border", schema["properties"]?["border"]), ("rider", schema["properties"]?["rider"]),
            ("label", schema["properties"]?["label"]), ("stroke", schema["properties"]?["label"]?["properties"]?["stroke"]),
            ("gif", schema["properties"]?["gif"]), ("webp", schema["properties"]?["webp"]), ("apng", schema["properties"]?["apng"]),
            ("layer", schema["$defs"]?["layer"]), ("levelRamp", schema["$defs"]?["levelRamp"]), ("levelTide", schema["$defs"]?["levelTide"]),
        ]
        var checked = 0
        for (place, object) in objects {
            guard case let .object(members)? = object?["properties"]?.value else { Issue.record("no properties for \(place)"); continue }
            for (key, property) in members {
                guard let value = property["default"] else { continue }
                #expect(try isDefault(value, key: key, in: Self.places[place]!), "schema: \(place) \(key) default \(value.brief)")
                checked += 1
            }
        }
        #expect(checked >= 40)
        // The one default that depends on another key is stated in words.
        let quality = schema["properties"]?["webp"]?["properties"]?["quality"]?["description"]
        #expect(quality?.value == .string("0…100: for lossy the visual quality, for lossless the compression effort. Defaults to \(Int(WebPOptions.losslessQuality)) when lossless and \(Int(WebPOptions.lossyQuality)) when lossy (lossless \(Int(WebPOptions.losslessQuality)) when there is no webp object at all)."))
    }

    /// Every default in a key table of docs/presets.md that is a JSON value (`0.5`, `"rect"`,
    /// `[128, 128]`) is the decoder's; the words around the others are checked for webp.quality.
    @Test func docsDefaultsAreTheDecoders() throws {
        let text = try String(contentsOf: Self.root.appendingPathComponent("docs/presets.md"), encoding: .utf8)
        let sections: [String: String] = ["## Top-level keys": "top", "## Lengths": "top", "### border": "border", "### rider": "rider",
                                          "### label": "label", "### gif": "gif", "### webp": "webp", "### apng": "apng", "### layers": "layer"]
        var place: String?
        var defaultColumn: Int?
        var checked = 0
        for line in text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if line.hasPrefix("#") { place = sections[line] ?? (line == "### level" ? "levelRamp" : nil); continue }
            let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            if line.hasPrefix("| Key |") {
                // The level section's second table is the tide's.
                if defaultColumn != nil, place == "levelRamp", line.hasSuffix("| Range |") { place = "levelTide" }
                defaultColumn = cells.firstIndex(of: "Default")
                continue
            }
            guard let current = place, let column = defaultColumn, line.hasPrefix("| `"), cells.count > column else { continue }
            var key = cells[0].trimmingCharacters(in: CharacterSet(charactersIn: "`"))
            var keyPlace = Self.places[current]!
            if key.hasPrefix("border.") || key.hasPrefix("layers[].") {
                keyPlace = Self.places[key.hasPrefix("border.") ? "border" : "layer"]!
                key = String(key.split(separator: ".").last!)
            }
            let raw = cells[column].replacingOccurrences(of: "`", with: "").replacingOccurrences(of: "−", with: "-")
            // A color is written without quotes.
            let json = raw.hasPrefix("#") && !raw.contains(" ") ? "\"\(raw)\"" : raw
            guard let value = try? JSONParser.parse(Array(json.utf8)) else { continue }
            #expect(try isDefault(value, key: key, in: keyPlace), "docs: \(current) \(key) default \(raw)")
            checked += 1
        }
        #expect(checked >= 40)
        #expect(text.contains("| `quality` | number | \(Int(WebPOptions.losslessQuality)) when lossless, \(Int(WebPOptions.lossyQuality)) when lossy |"))
    }
}
