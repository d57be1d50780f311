import Foundation
import Testing
import WaveKit
import WaveTestSupport

/// The pure-Swift text helpers that replaced Foundation's in the executable, held to Foundation
/// itself as the reference (tests may link it).
@Suite struct TextHelperTests {
    /// Every length from 0 to 40 and random bytes: the same text as `base64EncodedString()`, and
    /// decoding gives the bytes back, strictly and ignoring line breaks.
    @Test func base64MatchesFoundation() {
        var random = SeededGenerator(state: 38)
        for count in 0...40 {
            let bytes = (0..<count).map { _ in UInt8.random(in: 0...255, using: &random) }
            let text = Base64.encode(bytes)
            #expect(text == Data(bytes).base64EncodedString(), "\(count) bytes")
            #expect(Base64.decode(Array(text.utf8)) == bytes)
            let broken = text.enumerated().map { $0.offset % 7 == 6 ? "\($0.element)\n " : "\($0.element)" }.joined()
            #expect(Base64.decodeIgnoringOtherCharacters(broken) == bytes)
            #expect(Base64.decodeIgnoringOtherCharacters(broken) == Data(base64Encoded: broken, options: .ignoreUnknownCharacters).map { [UInt8]($0) })
        }
    }

    /// Text that is not base64 is refused, as Foundation refuses it.
    @Test(arguments: ["@@@@", "!", "AAA", "A===", "AAAA AAAA", "AAAA\n", "=AAA"])
    func base64RefusesWhatFoundationRefuses(_ text: String) {
        #expect(Base64.decode(Array(text.utf8)) == nil)
        #expect(Data(base64Encoded: text) == nil)
    }

    /// Padding inside the text is refused too, where Foundation reads "AA=A" as two bytes.
    @Test func base64RefusesPaddingInside() {
        #expect(Base64.decode(Array("AA=A".utf8)) == nil)
        #expect(Base64.decode(Array("AA==AAAA".utf8)) == nil)
        #expect(Base64.decode(Array("AA==".utf8)) == [0])
    }

    /// Trimming drops the same scalars as `CharacterSet.whitespacesAndNewlines` and `.whitespaces`.
    @Test(arguments: ["", " ", "  a b  ", "\t\n\r\u{0B}\u{0C}x\u{85}", "\u{A0}\u{2003}y\u{2028}\u{2029}", "\u{3000}z\u{200B}", "\u{200B}\u{FEFF}w", "é\u{301} "])
    func trimmingMatchesFoundation(_ text: String) {
        #expect(text.trimmingWhitespace() == text.trimmingCharacters(in: .whitespacesAndNewlines))
        #expect(text.trimming(\.isSpaceOrTab) == text.trimmingCharacters(in: .whitespaces))
    }

    /// Control and format characters are the scalars of `CharacterSet.controlCharacters`.
    @Test func controlCharactersMatchFoundation() {
        for value in Array(0...0x3000) + [0xFEFF, 0xFFF9, 0xE0001] {
            guard let scalar = Unicode.Scalar(value) else { continue }
            #expect(scalar.isControlCharacter == CharacterSet.controlCharacters.contains(scalar), "U+\(String(value, radix: 16))")
            #expect(scalar.isWhitespaceOrNewline == CharacterSet.whitespacesAndNewlines.contains(scalar), "U+\(String(value, radix: 16))")
        }
    }

    /// Replacing matches bytes, as `replacingOccurrences(of:with:)` does, "\n" inside "\r\n" included.
    @Test(arguments: [("a\r\nb", "\n", "\\n"), ("\\x\\", "\\", "\\\\"), ("aaa", "aa", "b"), ("", "a", "b"), ("x", "", "y"), ("{percent}%", "{percent}", "")])
    func replacingMatchesFoundation(_ text: String, _ target: String, _ replacement: String) {
        guard !target.isEmpty else {
            #expect(text.replacingAll(target, with: replacement) == text)
            return
        }
        #expect(text.replacingAll(target, with: replacement) == text.replacingOccurrences(of: target, with: replacement))
    }
}
