import Testing
@testable import WaveKit

/// Text printed on a terminal shows the characters a terminal would act on as escapes, the way
/// JSON strings (and the values quoted in messages) show them.
@Suite struct TerminalTextTests {
    @Test(arguments: [
        ("\u{1B}]0;pwned\u{07}", "\\u001b]0;pwned\\u0007"),
        ("\u{1B}[2J\u{1B}[H", "\\u001b[2J\\u001b[H"),
        ("a\u{00}b\u{08}c\u{0B}d\u{1F}e", "a\\u0000b\\u0008c\\u000bd\\u001fe"),
        ("tab\there\nnext\rback", "tab\\u0009here\\u000anext\\u000dback"),
        ("del\u{7F} csi\u{9B}31m nel\u{85}", "del\\u007f csi\\u009b31m nel\\u0085"),
        ("abc\u{202E}fed.json", "abc\\u202efed.json"),
        ("line\u{2028}para\u{2029}", "line\\u2028para\\u2029"),
        ("\u{2066}iso\u{2069}\u{200E}\u{200F}\u{061C}", "\\u2066iso\\u2069\\u200e\\u200f\\u061c"),
    ])
    func escapesControls(raw: String, shown: String) {
        #expect(TerminalText.escaped(raw) == shown)
    }

    @Test func leavesOtherTextAlone() {
        let text = "presets/wave 🌊 é — \\u001b \"quoted\" 日本語 a\u{200D}b"
        #expect(TerminalText.escaped(text) == text)
    }

    @Test func escapingTwiceChangesNothing() {
        let once = TerminalText.escaped("\u{1B}]0;x\u{07}\u{202E}")
        #expect(TerminalText.escaped(once) == once)
    }

    @Test func keepingLayoutKeepsLineFeedsAndTabs() {
        #expect(TerminalText.escaped("a\tb\nc\u{1B}d\re\n", keepingLayout: true) == "a\tb\nc\\u001bd\\u000de\n")
    }

    /// A key or file name is shown escaped like the value quoted beside it, and never twice.
    @Test func problemsShowKeysAndFilesEscaped() {
        let value = JSONNode(.string("\u{1B}[31m"))
        let problem = DocumentProblem(file: "bad\u{1B}name.json", line: 1, column: 2, keyPath: "\u{1B}]0;pwned\u{07}",
                                      message: "unknown key, got \(value.brief)")
        #expect(problem.description == "bad\\u001bname.json:1:2: error: at \\u001b]0;pwned\\u0007: unknown key, got \"\\u001b[31m\"")
        #expect(!problem.description.unicodeScalars.contains { $0.value < 0x20 })
        #expect(DocumentProblem(file: "a.json", message: "two\nlines").description == "a.json: error: two\\u000alines")
    }
}
