import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing
import WaveKit
import WaveRender

/// Whatever text a preset holds, the SVG it renders is well-formed XML (a browser shows it as an
/// `<img>` only then) and its Lottie file is JSON.
@Suite struct MarkupSafetyTests {
    /// Characters XML 1.0 forbids even as references, C1 controls, markup and quotes.
    static let hostile = "bad\u{0}\u{8}\u{B}\u{1B}]0;pwned\u{7}\u{1F}\u{85}\u{FFFE}\u{FFFF} <b>&amp;\"'</b> ]]> \u{1}"

    /// The bundled orb (which has a label) with `name` and `description`.
    func render(_ format: OutputFormat, name: String, description: String) throws -> [UInt8] {
        let pipeline = RenderPipeline()
        let sets = ["size=[48,48]", "fps=10"]
        var config = try pipeline.load("orb", overrides: try sets.map { try #require(PresetOverride(parsing: $0)) })
        config.name = name
        config.description = description
        let animation = try pipeline.prepare(config, plan: try pipeline.plan(config))
        return try pipeline.write(animation, to: [format.writer(for: config)])[0].bytes
    }

    /// The title holds the description, or the name when there is none.
    @Test(arguments: [(hostile, ""), ("", hostile), (hostile, hostile)])
    func svgIsWellFormed(name: String, description: String) throws {
        let bytes = try render(.svg, name: name, description: description)
        let parser = XMLParser(data: Data(bytes))
        let titles = TitleCollector()
        parser.delegate = titles
        #expect(parser.parse(), "\(String(describing: parser.parserError))")
        #expect(titles.title == "bad\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}]0;pwned\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD} <b>&amp;\"'</b> ]]> \u{FFFD}")
        // The id prefix's stand-in (U+0001) in the text did not become an id.
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(!text.contains("\u{1}"))
    }

    @Test func lottieIsJSON() throws {
        let bytes = try render(.lottie, name: MarkupSafetyTests.hostile, description: MarkupSafetyTests.hostile)
        let object = try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any]
        #expect(object?["nm"] as? String == MarkupSafetyTests.hostile)
        // Control characters are escaped, not written raw (the file ends in a line feed).
        #expect(!bytes.dropLast().contains { $0 < 0x20 })
    }
}

/// Collects the text of the document's `<title>`.
final class TitleCollector: NSObject, XMLParserDelegate {
    var title = ""
    private var inTitle = false

    func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName: String?,
                attributes: [String: String] = [:]) {
        if elementName == "title" { inTitle = true }
    }

    func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName: String?) {
        if elementName == "title" { inTitle = false }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        if inTitle { title += string }
    }
}
