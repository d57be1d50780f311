import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing
@testable import WaveKit

/// Text escaped for XML gives a document a strict parser accepts, whatever the text holds.
@Suite struct MarkupTextTests {
    /// Every character XML 1.0 forbids, the ones it discourages, and markup.
    static let hostile = "a\u{0}b\u{8}c\u{B}d\u{C}e\u{1F}f\u{7F}g\u{85}h\u{9F}i\u{FFFE}j\u{FFFF}k<&>\"'l\tm\nn\ro\u{10FFFF}p\u{D7FF}q\u{E000}"

    @Test func escapesMarkupAndReplacesForbiddenCharacters() {
        #expect(MarkupText.escaped(MarkupTextTests.hostile)
            == "a\u{FFFD}b\u{FFFD}c\u{FFFD}d\u{FFFD}e\u{FFFD}f\u{FFFD}g\u{FFFD}h\u{FFFD}i\u{FFFD}j\u{FFFD}k&lt;&amp;&gt;&quot;&#39;l\tm\nn\ro\u{10FFFF}p\u{D7FF}q\u{E000}")
    }

    @Test(arguments: [0x0, 0x8, 0xB, 0xC, 0x1F, 0xFFFE, 0xFFFF] as [UInt32])
    func forbiddenCharacters(value: UInt32) {
        #expect(!MarkupText.isXMLChar(Unicode.Scalar(value)!))
        #expect(MarkupText.isReplaced(Unicode.Scalar(value)!))
    }

    @Test func aStrictParserReadsTheText() throws {
        let text = MarkupText.escaped(MarkupTextTests.hostile)
        let document = "<?xml version=\"1.0\" encoding=\"UTF-8\"?><r a=\"\(text)\" b='\(text)'>\(text)</r>"
        let parser = XMLParser(data: Data(document.utf8))
        let ok = parser.parse()
        #expect(ok, "\(String(describing: parser.parserError))")
    }

    /// The check above means something: the same text unescaped is refused.
    @Test func aStrictParserRefusesTheRawText() {
        let parser = XMLParser(data: Data("<?xml version=\"1.0\" encoding=\"UTF-8\"?><r>a\u{1}b</r>".utf8))
        #expect(!parser.parse())
    }
}
