import Foundation
import Testing
import WaveTestSupport

/// What the SwiftPM plugin (Plugins/WavegenPlugin, `PlannedOutputs`) reads from `wavegen build
/// MANIFEST --list` to declare a build command's outputs before it runs: one line per output,
/// `MANIFEST-FOLDER/RELATIVE-PATH  (…)`, naming exactly the files `build` then writes. A file
/// written but not listed, or listed but not written, fails the app's build.
@Suite struct BuildListContractTests {
    @Test func listNamesExactlyTheFilesBuildWrites() throws {
        let folder = try TemporaryFolder()
        try folder.writeFile(blinkPreset, at: "presets/blink.json")
        let manifest = try folder.writeFile("""
            {"jobs": [
              {"name": "loader", "preset": "presets/blink.json", "output": "out/{name}{scale}.{format}",
               "formats": ["gif", "svg", "lottie"], "scales": [1, 2]},
              {"name": "my progress", "preset": "presets/blink.json", "output": "progress bars/{name}-{variant}-{level}.webp",
               "levels": [0, 1], "variants": {"light": {}, "dark": {"background": "#121212"}}}
            ]}
            """, at: "wavegen.json")

        let list = wavegen(["build", manifest, "--list"])
        #expect(list.code == 0, "\(list.err)")
        let prefix = folder.path + "/"
        var listed: [String] = []
        for line in list.outLines {
            let path = try #require(line.range(of: "  (").map { String(line[..<$0.lowerBound]) }, "\(line)")
            #expect(path.hasPrefix(prefix), "\(line)")
            #expect(line.hasSuffix(")"), "\(line)")
            listed.append(String(path.dropFirst(prefix.count)))
        }
        #expect(listed == [
            "out/blink.gif", "out/blink.svg", "out/blink.json", "out/blink@2x.gif",
            "progress bars/blink-light-000.webp", "progress bars/blink-light-100.webp",
            "progress bars/blink-dark-000.webp", "progress bars/blink-dark-100.webp",
        ])

        let build = wavegen(["build", manifest, "--quiet"])
        #expect(build.code == 0, "\(build.err)")
        let written = (folder.regularFiles(under: "out").map { "out/" + $0 }
            + folder.regularFiles(under: "progress bars").map { "progress bars/" + $0 }).sorted()
        #expect(written == listed.sorted())
    }
}
