import Foundation
import Testing
import WaveTestSupport
@testable import WavegenCLI
@testable import WaveBuild
@testable import WavePreview

/// A command-line override of what a job's matrix varies would write one picture under names that
/// say otherwise; it is refused before anything renders.
@Suite struct BuildAxisOverrideTests {
    func project() throws -> TemporaryFolder {
        let folder = try TemporaryFolder()
        try folder.writeFile(blinkPreset, at: "presets/blue.json")
        try folder.writeFile("""
            {
              "jobs": [
                { "name": "scaled", "preset": "presets/blue.json", "output": "out/s{scale}.{format}", "formats": ["gif"], "scales": [1, 3] },
                { "name": "levels", "preset": "presets/blue.json", "output": "out/l-{level}.gif", "levels": [0.2, 0.8] },
                { "name": "themes", "preset": "presets/blue.json", "output": "out/t-{variant}.gif",
                  "variants": { "dark": { "background": "#000000" }, "light": { "background": "#FFFFFF" } } },
                { "name": "plain", "preset": "presets/blue.json", "output": "out/p.gif" }
              ]
            }
            """, at: "wavegen.json")
        return folder
    }

    @Test(arguments: [
        (["--scale", "2"], "--scale sets scale, which jobs[0] (scaled) varies by its scales"),
        (["--set", "scale=2"], "--set sets scale, which jobs[0] (scaled) varies by its scales"),
        (["--level", "0.5"], "--level sets level, which jobs[1] (levels) varies by its levels"),
        (["--background", "#FF0000"], "--background sets background, which jobs[2] (themes) varies by its variants"),
    ])
    func refused(args: [String], message: String) throws {
        let folder = try project()
        for check in [[], ["--check"]] {
            let r = wavegen(["build", folder.file("wavegen.json")] + args + check)
            #expect(r.code == 64)
            #expect(r.errLines.first?.hasPrefix("Error: " + message) == true, "\(r.err)")
            #expect(!folder.hasFile("out"), "something was written")
        }
    }

    /// Overrides of keys no axis varies still apply to every job.
    @Test func otherOverridesApply() throws {
        let folder = try project()
        let r = wavegen(["build", folder.file("wavegen.json"), "--fps", "5", "-q"])
        #expect(r.code == 0, "\(r.err)")
        #expect(folder.regularFiles(under: "out").count == 7)
    }
}
