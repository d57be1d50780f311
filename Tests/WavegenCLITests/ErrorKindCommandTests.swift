import Foundation
import Testing
import WaveTestSupport
@testable import WavegenCLI

/// One failure of each kind, as a user sees it: the first line on stderr (the compiler form for a
/// problem in a document, `Error: ` otherwise), the usage line only for bad arguments, and the
/// exit code.
@Suite struct ErrorKindCommandTests {
    func check(_ r: RunResult, code: Int32, first: (String) -> Bool, usage: Bool = false) {
        #expect(r.code == code, "\(r.err)")
        #expect(r.errLines.first.map(first) == true, "\(r.err)")
        #expect(r.errLines.contains { $0.hasPrefix("Usage: ") } == usage, "\(r.err)")
    }

    @Test func missingInput() throws {
        let folder = try TemporaryFolder()
        let preset = folder.file("nope.json")
        check(wavegen(["render", preset, "-o", folder.file("out.gif")]), code: 66) { $0 == "\(preset): error: no such file" }
    }

    @Test func invalidInput() throws {
        let folder = try TemporaryFolder()
        let preset = try folder.write(#"{"size": [64, 64], "fps": "fast"}"#, to: "bad.json")
        check(wavegen(["render", preset, "-o", folder.file("out.gif")]), code: 65) { $0.hasPrefix("\(preset):1:") && $0.contains(": error: at fps: ") }
    }

    @Test func cannotWrite() throws {
        let folder = try TemporaryFolder()
        let preset = try folder.write(blinkPreset, to: "p.json")
        let out = folder.file("missing/out.gif")
        check(wavegen(["render", preset, "-o", out]), code: 73) { $0.hasPrefix("Error: \(out): cannot write: folder ") }
    }

    @Test func overBudget() throws {
        let folder = try TemporaryFolder()
        let preset = try folder.write(blinkPreset, to: "p.json")
        let out = folder.file("out.gif")
        check(wavegen(["render", preset, "-o", out, "--max-bytes", "10"]), code: 1) { $0.hasPrefix("Error: \(out): nothing fits in 10 bytes: ") }
    }

    @Test func failure() throws {
        let folder = try TemporaryFolder()
        try folder.writeFile(blinkPreset, at: "p.json")
        try folder.writeFile(#"{"jobs": [{"name": "blue", "preset": "p.json", "output": "out/blue.gif"}]}"#, at: "wavegen.json")
        check(wavegen(["build", folder.file("wavegen.json"), "--check"]), code: 1) { $0 == "Error: jobs[0] (blue): \(folder.file("out/blue.gif")): is missing" }
    }

    @Test func usage() {
        check(wavegen(["render", "--bogus"]), code: 64, first: { $0 == "Error: unknown option '--bogus'" }, usage: true)
    }

    @Test func conflictingArguments() throws {
        let folder = try TemporaryFolder()
        try folder.writeFile(blinkPreset, at: "p.json")
        try folder.writeFile(#"{"jobs": [{"name": "s", "preset": "p.json", "output": "out/s{scale}.gif", "scales": [1, 2]}]}"#, at: "wavegen.json")
        check(wavegen(["build", folder.file("wavegen.json"), "--scale", "3"]), code: 64) { $0.hasPrefix("Error: --scale sets scale, which ") }
    }

    @Test func unavailable() throws {
        let folder = try TemporaryFolder()
        let preset = try folder.write(blinkPreset, to: "p.json")
        let taken = try TakenPort()
        check(wavegen(["serve", "--port", "\(taken.port)", preset]), code: 69) { $0.hasPrefix("Error: cannot listen on 127.0.0.1:\(taken.port): ") }
    }
}
