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

    @Test func keywordsMatchTheLoader() {
        let p = schema["properties"]
        #expect(strings(p?["shape"]?["enum"]) == WaveConfig.shapeKeywords)
        #expect(strings(p?["gif"]?["properties"]?["edges"]?["enum"]) == GIFOptions.Edges.allCases.map(\.rawValue))
        #expect(strings(definition("levelRamp")?["properties"]?["ease"]?["enum"]) == LevelAnimation.Ease.allCases.map(\.rawValue))
        #expect(strings(p?["label"]?["properties"]?["position"]?["enum"]) == Label.Position.allCases.map(\.rawValue))
    }

    @Test func everyObjectRefusesUnknownKeysButAllowsComments() {
        for node in [schema, definition("layer"), definition("levelRamp"), definition("levelTide"), schema["properties"]?["border"],
                     schema["properties"]?["gif"], schema["properties"]?["webp"], schema["properties"]?["rider"], schema["properties"]?["label"]] {
            #expect(node?["additionalProperties"]?.value == .bool(false))
            #expect(node?["patternProperties"]?["^[$_]"] != nil)
        }
    }
}
