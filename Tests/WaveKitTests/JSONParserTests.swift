import Testing
@testable import WaveKit

@Suite struct JSONParserTests {
    @Test func parsesNestedValuesWithPositions() throws {
        let root = try JSONParser.parse("{\n  \"a\": [1, 2.5, -3e2],\n  \"b\": {\"c\": true, \"d\": null, \"e\": \"x\\u00e9\\n\"}\n}")
        guard case let .array(items)? = root["a"]?.value else { Issue.record("a is not an array"); return }
        #expect(items.map(\.value) == [.number(1), .number(2.5), .number(-300)])
        #expect(root["a"]?.line == 2)
        #expect(root["a"]?.column == 8)
        #expect(root["b"]?["e"]?.value == .string("xé\n"))
        #expect(root["b"]?["c"]?.value == .bool(true))
    }

    @Test(arguments: [
        ("{\"a\": 1,}", 1, 9, "trailing comma"),
        ("{\"a\": 1} x", 1, 10, "after the end"),
        ("{\"a\": // c\n 1}", 1, 7, "comments are not allowed"),
        ("{\"a\": NaN}", 1, 7, "NaN and Infinity"),
        ("{\"a\": 01}", 1, 8, "leading zeros"),
        ("{\"a\": 1, \"a\": 2}", 1, 10, "duplicate key"),
        ("{\"a\": \"x", 1, 9, "end of file inside a string"),
        ("", 1, 1, "empty document"),
        ("\u{FEFF}{}", 1, 1, "byte-order mark"),
        ("{'a': 1}", 1, 2, "strings must use double quotes"),
        ("{\"a\": 1e999}", 1, 7, "out of range"),
    ])
    func reportsSyntaxErrors(text: String, line: Int, column: Int, fragment: String) {
        do {
            _ = try JSONParser.parse(text)
            Issue.record("parsed \(text)")
        } catch {
            #expect(error.message.contains(fragment), "\(error.message)")
            #expect(error.line == line)
            #expect(error.column == column)
        }
    }

    /// A bare word is named as what it is; only NaN and Infinity (and their other languages'
    /// spellings) get the hint about non-finite numbers.
    @Test(arguments: [
        ("Name: x", 1, 1, "unexpected 'Name'; expected a value"),
        ("{\"a\": Nope}", 1, 7, "unexpected 'Nope'; expected a value"),
        ("{\"a\": NaNa}", 1, 7, "unexpected 'NaNa'; expected a value"),
        ("{\"a\": tru}", 1, 7, "unexpected 'tru'; expected a value"),
        ("{\"a\": True}", 1, 7, "unexpected 'True'; expected a value"),
        ("{\"a\": nulls}", 1, 7, "unexpected 'nulls'; expected a value"),
        ("{\"a\": Infinite}", 1, 7, "unexpected 'Infinite'; expected a value"),
        ("{\"a\": -Infinite}", 1, 8, "invalid number"),
        ("{\"a\": -x}", 1, 8, "invalid number"),
        ("{\"a\": abcdefghijklmnopqrstuvwxyz}", 1, 7, "unexpected 'abcdefghijklmnopqrst…'; expected a value"),
        ("{\"a\": NaN}", 1, 7, "NaN and Infinity are not JSON numbers"),
        ("{\"a\": nan}", 1, 7, "NaN and Infinity are not JSON numbers"),
        ("{\"a\": Infinity}", 1, 7, "NaN and Infinity are not JSON numbers"),
        ("{\"a\": -Infinity}", 1, 8, "NaN and Infinity are not JSON numbers"),
        ("{\"a\": -inf}", 1, 8, "NaN and Infinity are not JSON numbers"),
        ("{\"a\": true1}", 1, 11, "unexpected '1'; expected ',' or '}'"),
        ("null x", 1, 6, "unexpected 'x' after the end of the document"),
    ])
    func namesBareWords(text: String, line: Int, column: Int, message: String) {
        do {
            _ = try JSONParser.parse(text)
            Issue.record("parsed \(text)")
        } catch {
            #expect(error.message == message)
            #expect(error.line == line)
            #expect(error.column == column)
        }
    }

    @Test func literalsStillParse() throws {
        let root = try JSONParser.parse("{\"t\": true, \"f\": false, \"n\": null, \"a\": [true,false,null]}")
        #expect(root["t"]?.value == .bool(true))
        #expect(root["f"]?.value == .bool(false))
        #expect(root["n"]?.value == .null)
        #expect(root["a"]?.value == .array([JSONNode(.bool(true)), JSONNode(.bool(false)), JSONNode(.null)]))
    }

    @Test func refusesDeepNesting() {
        let deep = String(repeating: "[", count: 100) + String(repeating: "]", count: 100)
        #expect(throws: JSONParser.SyntaxError.self) { try JSONParser.parse(deep) }
        let ok = String(repeating: "[", count: 60) + String(repeating: "]", count: 60)
        #expect(throws: Never.self) { try JSONParser.parse(ok) }
    }

    @Test func serializesAndReparsesTheSameTree() throws {
        let text = "{\"name\": \"a\\\"b\", \"size\": [128, 64], \"layers\": [{\"speed\": -0.5}], \"x\": {}}"
        let root = try JSONParser.parse(text)
        #expect(try JSONParser.parse(root.serialized()) == root)
        #expect(try JSONParser.parse(root.serialized(indent: nil)) == root)
    }
}
