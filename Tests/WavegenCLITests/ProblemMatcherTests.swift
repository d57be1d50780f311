import Foundation
import Testing
import WaveTestSupport

/// `.github/wavegen-problem-matcher.json` (docs/ci.md) reads the problem lines `validate` and
/// `build` really print: `FILE:LINE:COLUMN: error: …`, `FILE: error: …` without a position, and
/// the `warning:` forms, with or without a file. Lines that are not document problems (`Error: …`,
/// the output lines and the summary) must not match.
@Suite struct ProblemMatcherTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    struct MatcherFile: Decodable {
        struct Matcher: Decodable {
            var owner: String
            var pattern: [Pattern]
        }
        struct Pattern: Decodable {
            var regexp: String
            var file: Int?
            var line: Int?
            var column: Int?
            var severity: Int?
            var message: Int?
            var loop: Bool?
        }
        var problemMatcher: [Matcher]
    }

    /// What an annotation gets from one line: nil where the group took no part in the match, as
    /// the runner leaves such a field out.
    struct Problem: Equatable, CustomStringConvertible {
        var file: String?
        var line: String?
        var column: String?
        var severity: String
        var message: String

        var description: String { "\(file ?? "-"):\(line ?? "-"):\(column ?? "-") \(severity) \(message)" }
    }

    /// The matcher's one pattern, compiled as ICU (NSRegularExpression) and as a Swift Regex.
    struct Compiled {
        var pattern: MatcherFile.Pattern
        var ns: NSRegularExpression
        var swift: Regex<AnyRegexOutput>

        init() throws {
            let data = try Data(contentsOf: ProblemMatcherTests.root.appendingPathComponent(".github/wavegen-problem-matcher.json"))
            let file = try JSONDecoder().decode(MatcherFile.self, from: data)
            let matcher = try #require(file.problemMatcher.first)
            pattern = try #require(matcher.pattern.first)
            ns = try NSRegularExpression(pattern: pattern.regexp)
            swift = try Regex(pattern.regexp)
        }

        /// The problem the pattern reads from `line`, through NSRegularExpression; the Swift Regex
        /// must read the same.
        func parse(_ line: String) -> Problem? {
            let viaNS = parseNS(line)
            let viaSwift = parseSwift(line)
            #expect(viaNS == viaSwift, "NSRegularExpression and Regex disagree on \(line)")
            return viaNS
        }

        private func parseNS(_ line: String) -> Problem? {
            guard let m = ns.firstMatch(in: line, range: NSRange(line.startIndex..., in: line)) else { return nil }
            func group(_ i: Int?) -> String? {
                guard let i, i < m.numberOfRanges, let r = Range(m.range(at: i), in: line) else { return nil }
                return String(line[r])
            }
            return Problem(file: group(pattern.file), line: group(pattern.line), column: group(pattern.column),
                           severity: group(pattern.severity) ?? "", message: group(pattern.message) ?? "")
        }

        private func parseSwift(_ line: String) -> Problem? {
            guard let m = try? swift.firstMatch(in: line) else { return nil }
            func group(_ i: Int?) -> String? {
                guard let i, i < m.output.count, let s = m.output[i].substring else { return nil }
                return String(s)
            }
            return Problem(file: group(pattern.file), line: group(pattern.line), column: group(pattern.column),
                           severity: group(pattern.severity) ?? "", message: group(pattern.message) ?? "")
        }
    }

    /// One owner, and one pattern: GitHub reads several patterns in one matcher as consecutive
    /// lines of a single problem, so the forms without a position share the one regexp.
    @Test func theMatcherIsOneSingleLinePattern() throws {
        let data = try Data(contentsOf: Self.root.appendingPathComponent(".github/wavegen-problem-matcher.json"))
        let file = try JSONDecoder().decode(MatcherFile.self, from: data)
        #expect(file.problemMatcher.count == 1)
        #expect(file.problemMatcher.first?.owner == "wavegen")
        #expect(file.problemMatcher.first?.pattern.count == 1)
        let compiled = try Compiled()
        let p = compiled.pattern
        #expect(p.loop != true)
        let groups = compiled.ns.numberOfCaptureGroups
        for index in [p.file, p.line, p.column, p.severity, p.message] {
            let i = try #require(index, "every field is mapped")
            #expect(i >= 1 && i <= groups)
        }
    }

    @Test func validateProblemsAreReadWithTheirFilePositionSeverityAndMessage() throws {
        let m = try Compiled()
        let folder = try TemporaryFolder()
        let bad = try folder.writeFile("{\n  \"fps\": 0,\n  \"layers\": [{\"colour\": \"#1E88E5\"}]\n}\n", at: "bad.json")
        let dur = try folder.writeFile(##"{"duration": 1.5, "layers": [{"color": "#1E88E5", "speed": 0.5}]}"##, at: "dur.json")
        let missing = folder.file("missing.json")
        let r = wavegen(["validate", bad, missing, dur])
        #expect(r.code == 66)
        #expect(r.errLines.map(m.parse) == [
            Problem(file: bad, line: "2", column: "10", severity: "error", message: "at fps: must be at least 0.1 and at most 240, got 0"),
            Problem(file: bad, line: "3", column: "25", severity: "error", message: #"at layers[0].colour: unknown key (did you mean "color"?)"#),
            Problem(file: bad, line: "3", column: "14", severity: "error", message: "at layers[0].color: is required"),
            Problem(file: missing, severity: "error", message: "no such file"),
            Problem(file: dur, severity: "warning",
                    message: "duration 1.5 s moves speeds beyond speedTolerance 2 %: layer 0 speed 0.5 → 0.667 (+33.3 %)"),
        ], "\(r.err)")
        #expect(r.outLines.compactMap(m.parse).isEmpty, "\(r.out)")

        // Through a manifest the planner's warning names the job, not a file: a warning without one.
        try folder.writeFile(#"{"jobs": [{"preset": "dur.json", "output": "out/a.gif"}]}"#, at: "wavegen.json")
        let manifest = wavegen(["validate", folder.path])
        #expect(manifest.code == 0)
        #expect(manifest.errLines.map(m.parse) == [
            Problem(severity: "warning",
                    message: "jobs[0] (dur.json): dur: duration 1.5 s moves speeds beyond speedTolerance 2 %: layer 0 speed 0.5 → 0.667 (+33.3 %)"),
        ], "\(manifest.err)")
    }

    /// `build --check`: a manifest problem is read with its position; the `Error: …` lines (an
    /// output missing, stale or orphaned, the closing count) and stdout are not file problems.
    @Test func buildCheckProblemsAreReadAndOtherLinesAreNot() throws {
        let m = try Compiled()
        let folder = try TemporaryFolder()
        try folder.writeFile(##"{"size": [16, 16], "layers": [{"color": "#1E88E5"}]}"##, at: "p.json")
        let manifest = try folder.write("""
            {"jobs": [{"name": "a", "preset": "p.json", "output": "out/a{scale}.gif", "scales": [1, 2]},
              {"name": "b", "preset": "gone.json", "output": "out/b.gif"}]}
            """, to: "wavegen.json")
        let check = wavegen(["build", folder.path, "--check"])
        #expect(check.code == 66)
        let gone = Problem(file: manifest, line: "2", column: "27", severity: "error",
                           message: #"at jobs[1].preset: no preset "gone.json" ("# + folder.file("gone.json") + "): no such file")
        #expect(check.errLines.map(m.parse) == [nil, nil, gone, nil], "\(check.err)")
        #expect(check.errLines.first?.hasPrefix("Error: jobs[0] (a): ") == true, "\(check.err)")
        #expect(check.errLines.last?.hasPrefix("Error: 2 of 3 outputs are missing") == true, "\(check.err)")
        #expect(check.outLines.compactMap(m.parse).isEmpty, "\(check.out)")

        // An override on the command line is reported as the file "--set", without a position.
        let set = wavegen(["build", folder.path, "--check", "--set", "fps=0"])
        #expect(set.errLines.compactMap(m.parse).contains(
            Problem(file: "--set", severity: "error", message: "at fps: must be at least 0.1 and at most 240, got 0")), "\(set.err)")

        // Orphans: build warns without a file, --check fails with an `Error:` line.
        try folder.writeFile(#"{"jobs": [{"name": "a", "preset": "p.json", "output": "out/a{scale}.gif", "scales": [1, 2]}]}"#, at: "wavegen.json")
        #expect(wavegen(["build", folder.path, "-q"]).code == 0)
        try folder.writeFile(#"{"jobs": [{"name": "a", "preset": "p.json", "output": "out/a{scale}.gif", "scales": [1]}]}"#, at: "wavegen.json")
        let orphaned = wavegen(["build", folder.path, "--check"])
        #expect(orphaned.code == 1)
        #expect(!orphaned.errLines.isEmpty && orphaned.errLines.allSatisfy { $0.hasPrefix("Error: ") && m.parse($0) == nil }, "\(orphaned.err)")
        let built = wavegen(["build", folder.path])
        #expect(built.code == 0)
        let warnings = built.errLines.compactMap(m.parse)
        #expect(warnings.count == 1 && warnings.allSatisfy { $0.file == nil && $0.severity == "warning" && $0.message.hasPrefix("1 file wavegen wrote") },
                "\(built.err)")
        #expect(built.outLines.compactMap(m.parse).isEmpty, "\(built.out)")
    }

    /// Lines made to look like problems: the file may hold spaces and colons, a message may hold
    /// ": error: ", and `Error:`, `note:` and lines of other shapes are left alone.
    @Test func edgeCasesOfTheForm() throws {
        let m = try Compiled()
        #expect(m.parse("dir with space/a:b.json:12:3: warning: x: error: y")
                == Problem(file: "dir with space/a:b.json", line: "12", column: "3", severity: "warning", message: "x: error: y"))
        #expect(m.parse("a.json: error: at fps: is required") == Problem(file: "a.json", severity: "error", message: "at fps: is required"))
        for line in ["Error: jobs[0] (a): out/a.gif: is missing",
                     "Error: cannot listen on 127.0.0.1:8080: the port is in use",
                     "note: schema.json: skipped: a JSON Schema document, not a preset",
                     "3 outputs: 2 unchanged, 0 missing, 0 stale, 0 modified, 0 over budget, 1 failed",
                     "missing        7.9 kB  out/a.gif  (not on disk)",
                     "a.json:2:10: Error: capitalised", "a.json: error:", ""] {
            #expect(m.parse(line) == nil, "\(line)")
        }
    }
}
