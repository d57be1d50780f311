import Foundation
import Testing
import WaveTestSupport
@testable import WavegenCLI
@testable import WaveBuild
@testable import WavePreview

/// Keys, names and paths from a shared preset or manifest reach the terminal escaped, in every
/// kind of line: document problems, command errors, status lines and the progress line.
@Suite struct TerminalEscapeTests {
    /// The characters of `text` a terminal would act on (line feeds aside).
    func controls(_ text: String) -> [Unicode.Scalar] {
        text.unicodeScalars.filter { $0 != "\n" && TerminalTextCheck.isControl($0) }
    }

    @Test func anUnknownKeyIsEscaped() throws {
        let folder = try TemporaryFolder()
        let preset = try folder.write("{\"\\u001b]0;pwned\\u0007\": 1, \"size\": [16, 16]}", to: "p.json")
        let r = wavegen(["validate", preset])
        #expect(r.code == 65)
        #expect(controls(r.err).isEmpty, "\(r.err.debugDescription)")
        #expect(r.errLines.first?.hasPrefix("\(preset):1:26: error: at \\u001b]0;pwned\\u0007: unknown key") == true, "\(r.err)")
    }

    @Test func aFileNameIsEscaped() throws {
        let folder = try TemporaryFolder()
        let preset = try folder.write("{\"fps\": \"fast\"}", to: "bad\u{1B}]0;pwned\u{07}\u{202E}.json")
        let shown = preset.replacingOccurrences(of: "\u{1B}]0;pwned\u{07}\u{202E}", with: "\\u001b]0;pwned\\u0007\\u202e")
        let r = wavegen(["render", preset, "-o", folder.file("out.gif")])
        #expect(r.code == 65)
        #expect(r.errLines == ["\(shown):1:9: error: at fps: expected a number, got \"fast\""])
        let missing = wavegen(["render", folder.file("no\u{1B}[2J.json"), "-o", folder.file("out.gif")])
        #expect(missing.code == 66)
        #expect(controls(missing.err).isEmpty, "\(missing.err.debugDescription)")
        #expect(missing.err.contains("no\\u001b[2J.json"))
    }

    @Test func commandErrorsAndStatusLinesAreEscaped() throws {
        let folder = try TemporaryFolder()
        let preset = try folder.write(blinkPreset, to: "p.json")
        // A command error (no such folder) naming the output path.
        let failed = wavegen(["render", preset, "-o", folder.file("no\u{1B}[31m/out.gif")])
        #expect(failed.code == 73)
        #expect(controls(failed.err).isEmpty, "\(failed.err.debugDescription)")
        // A status line on stdout naming the output path (control characters are refused in the
        // names wavegen writes; a bidirectional override is a legal name that must not reorder the line).
        let written = wavegen(["render", preset, "-o", folder.file("out\u{202E}fig.gif")])
        #expect(written.code == 0, "\(written.err)")
        #expect(controls(written.out).isEmpty, "\(written.out.debugDescription)")
        #expect(written.out.contains("out\\u202efig.gif"), "\(written.out)")
    }

    /// The progress line keeps its own carriage return and erase, and escapes the paths it shows.
    @Test func theProgressLineEscapesPaths() throws {
        let folder = try TemporaryFolder()
        try folder.writeFile(blinkPreset, at: "p.json")
        try folder.writeFile("{\"jobs\": [{\"preset\": \"p.json\", \"output\": \"out/x\\u202e.{format}\", \"formats\": [\"gif\"]}]}",
                             at: "wavegen.json")
        let r = wavegenOnATerminal(["build", folder.file("wavegen.json")])
        #expect(r.code == 0, "\(r.err)")
        #expect(r.err.contains(ProgressLine.clearLine), "\(r.err.debugDescription)")
        let withoutOwn = r.err.replacingOccurrences(of: ProgressLine.clearLine, with: "")
        #expect(controls(withoutOwn).isEmpty, "\(r.err.debugDescription)")
        #expect(withoutOwn.contains("x\\u202e.gif"), "\(r.err.debugDescription)")
    }
}

/// The characters the tests count as terminal controls: C0, DEL, C1 and bidirectional overrides.
enum TerminalTextCheck {
    static func isControl(_ s: Unicode.Scalar) -> Bool {
        s.value < 0x20 || (0x7F...0x9F).contains(s.value) || (0x202A...0x202E).contains(s.value)
    }
}
