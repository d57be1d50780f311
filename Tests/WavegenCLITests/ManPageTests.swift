import Foundation
import Testing
@testable import WavegenCLI
@testable import WaveBuild
@testable import WavePreview

/// `wavegen manpage`: generated from the specs that print `--help`, so the two list the same options.
@Suite struct ManPageTests {
    let page = wavegen(["manpage"]).out

    /// Each subcommand's block of the page (from its `.SS` line to the next section), unescaped.
    func block(_ name: String) -> String? {
        let lines = page.split(separator: "\n", omittingEmptySubsequences: false)
        guard let start = lines.firstIndex(of: ".SS \(name)") else { return nil }
        let end = lines[(start + 1)...].firstIndex { $0.hasPrefix(".SS ") || $0.hasPrefix(".SH ") } ?? lines.endIndex
        return unescaped(lines[start..<end].joined(separator: "\n"))
    }

    /// Roff text without dash escapes and font changes.
    func unescaped(_ roff: String) -> String {
        roff.replacingOccurrences(of: "\\-", with: "-").replacingOccurrences(of: "\\fB", with: "")
            .replacingOccurrences(of: "\\fI", with: "").replacingOccurrences(of: "\\fR", with: "")
    }

    /// Every `--option` and `-o` spelling in a text.
    func optionNames(_ text: String) -> Set<String> {
        let pattern = try! NSRegularExpression(pattern: #"(?<![\w-])--?[a-z][a-z-]*"#)
        let range = NSRange(text.startIndex..., in: text)
        return Set(pattern.matches(in: text, range: range).map { String(text[Range($0.range, in: text)!]) })
    }

    @Test func sectionsInOrder() {
        let sections = page.split(separator: "\n").filter { $0.hasPrefix(".SH ") }.map { $0.dropFirst(4) }
        #expect(sections == ["NAME", "SYNOPSIS", "DESCRIPTION", "COMMANDS", "OPTIONS", "EXIT STATUS", "FILES", "EXAMPLES"])
    }

    @Test(arguments: Wavegen.commandSpecs.map(\.name))
    func sameOptionsAsHelp(_ name: String) throws {
        let help = wavegen(["help", name])
        let manBlock = try #require(block(name), "the man page has no section for \(name)")
        if name == "help" {
            // `wavegen help help` shows the overview; the page describes `help` itself.
            #expect(optionNames(manBlock) == ["--help", "-h"])
            return
        }
        #expect(help.code == 0)
        #expect(optionNames(manBlock) == optionNames(help.out), "the man page and 'wavegen help \(name)' disagree")
        let spec = try #require(Wavegen.commandSpecs.first { $0.name == name })
        for option in spec.options {
            for spelling in option.names { #expect(optionNames(manBlock).contains(spelling), "\(spelling) is not in the man page") }
        }
    }

    @Test func globalOptionsAndExitCodes() throws {
        let options = try #require(page.components(separatedBy: ".SH OPTIONS").last?.components(separatedBy: ".SH ").first)
        #expect(optionNames(unescaped(options)) == ["--version", "--help", "-h"])
        #expect(optionNames(wavegen(["--help"]).out) == ["--version", "--help", "-h"])
        let exitStatus = try #require(page.components(separatedBy: "EXIT STATUS").last?.components(separatedBy: ".SH ").first)
        for code in ExitCode.allCases { #expect(exitStatus.contains(".B \(code.rawValue)\n")) }
    }

    @Test func everyLineIsSafeRoff() {
        for line in page.split(separator: "\n") where !line.hasPrefix(".") {
            #expect(!line.hasPrefix("'"), "a line starting with a quote is a request: \(line)")
            #expect(!line.contains("\\-\\-\\-"))
        }
    }
}
