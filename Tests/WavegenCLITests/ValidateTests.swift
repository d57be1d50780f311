import Foundation
import Testing
@testable import WavegenCLI

/// validate takes folders as build does, and says what render would warn about.
@Suite struct ValidateTests {
    @Test func aFolderMeansItsManifestAndPlannerWarningsAreShown() throws {
        let folder = try TemporaryFolder()
        try folder.writeFile(##"{"duration": 1.5, "layers": [{"color": "#1E88E5", "speed": 0.5}]}"##, at: "dur.json")
        try folder.writeFile(#"{"jobs": [{"preset": "dur.json", "output": "out/a{scale}.gif", "scales": [1, 2]}]}"#, at: "wavegen.json")
        let preset = wavegen(["validate", folder.file("dur.json")])
        #expect(preset.code == 0)
        #expect(preset.errLines.count == 1 && preset.errLines[0].hasPrefix("\(folder.path)/dur.json: warning: duration 1.5 s moves"), "\(preset.err)")
        let manifest = wavegen(["validate", folder.path])
        #expect(manifest.code == 0, "\(manifest.err)")
        #expect(manifest.out == "\(folder.path)/wavegen.json: ok\n")
        // Once, however many scales share the preset.
        #expect(manifest.errLines.count == 1 && manifest.errLines[0].hasPrefix("warning: jobs[0] (dur.json): "), "\(manifest.err)")
    }
}
