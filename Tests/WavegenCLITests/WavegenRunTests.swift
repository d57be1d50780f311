import Foundation
import Testing
import WaveGIF
import WaveKit
import WaveRender
import WaveWebP
@testable import WavegenCLI
@testable import WaveBuild
@testable import WavePreview
import WaveTestSupport

@Suite struct WavegenHelpTests {
    @Test(arguments: [["--help"], ["-h"], ["help"], []])
    func overview(args: [String]) {
        let r = wavegen(args)
        #expect(r.code == 0)
        #expect(r.err.isEmpty)
        #expect(r.out.hasPrefix("OVERVIEW: "))
        #expect(r.out.contains("USAGE: wavegen <subcommand> [options]"))
        for name in ["render", "plan", "validate", "presets", "help"] {
            #expect(r.outLines.contains { $0.hasPrefix("  \(name) ") }, "\(name) is not listed")
        }
    }

    @Test func version() {
        let r = wavegen(["--version"])
        #expect(r.code == 0)
        #expect(r.out == "wavegen \(Wavegen.versionDescription)\n")
        #expect(Wavegen.versionDescription.hasPrefix(Wavegen.version))
        #expect(r.err.isEmpty)
    }

    @Test func helpForASubcommand() {
        let r = wavegen(["help", "render"])
        #expect(r.code == 0)
        #expect(r.err.isEmpty)
        #expect(r.out.hasPrefix("OVERVIEW: Render a preset"))
        #expect(r.out.contains("USAGE: wavegen render [<preset>] --output <file> [options]"))
        #expect(r.out.contains("-o, --output <file>"))
        #expect(r.out.contains("--set <key=value>"))
        // The same text as `render --help`.
        #expect(wavegen(["render", "--help"]).out == r.out)
        #expect(wavegen(["render", "-h"]).out == r.out)
    }

    @Test func helpForAnUnknownSubcommand() {
        let r = wavegen(["help", "rendr"])
        #expect(r.code == 64)
        #expect(r.out.isEmpty)
        #expect(r.errLines.first == "Error: unknown subcommand 'rendr' (did you mean 'render'?)")
    }

    @Test(arguments: ["help", "--help", "-h"])
    func helpForHelpIsTheOverview(_ word: String) {
        let r = wavegen(["help", word])
        #expect(r.code == 0)
        #expect(r.err.isEmpty)
        #expect(r.out == wavegen(["--help"]).out)
    }
}

@Suite struct WavegenUsageErrorTests {
    @Test func unknownSubcommand() {
        let r = wavegen(["rendr", "classic"])
        #expect(r.code == 64)
        #expect(r.out.isEmpty)
        #expect(r.err.hasPrefix("Error: "))
        #expect(r.errLines.first == "Error: unknown subcommand 'rendr' (did you mean 'render'?)")
        #expect(r.errLines.count >= 2)
        #expect(r.errLines.dropFirst().first?.hasPrefix("Usage: ") == true, "\(r.err)")
        #expect(r.errLines.dropFirst().first == "Usage: wavegen <subcommand> [options]")
    }

    @Test func unknownTopLevelOption() {
        let r = wavegen(["--verbose"])
        #expect(r.code == 64)
        #expect(r.errLines.first == "Error: unknown option '--verbose'")
    }

    @Test func renderWithoutOutput() {
        let r = wavegen(["render", "classic"])
        #expect(r.code == 64)
        #expect(r.out.isEmpty)
        #expect(r.errLines.first == "Error: missing --output <file>")
        #expect(r.errLines.dropFirst().first == "Usage: wavegen render [<preset>] --output <file> [options]")
        #expect(r.err.contains("wavegen help render"))
    }

    @Test func renderUnknownOptionSuggests() {
        let r = wavegen(["render", "classic", "--outptu", "x.gif"])
        #expect(r.code == 64)
        #expect(r.errLines.first == "Error: unknown option '--outptu' (did you mean '--output'?)")
        #expect(r.errLines.dropFirst().first?.hasPrefix("Usage: wavegen render") == true)
    }

    @Test(arguments: [
        ["render", "-o", "x.bmp"],
        ["render", "-o", "x.gif", "--format", "png"],
        ["render", "-o", "x.gif", "--threads", "0"],
        ["render", "-o", "x.gif", "--threads", "many"],
        ["render", "a", "b", "-o", "x.gif"],
        ["render", "-o", "x.gif", "--size", "12"],
        ["render", "-o", "x.gif", "--fps", "fast"],
        ["render", "-o", "x.gif", "--set", "novalue"],
        ["validate"],
        ["presets", "frobnicate"],
        ["plan", "a", "b"],
    ])
    func badArguments(args: [String]) {
        let r = wavegen(args)
        #expect(r.code == 64, "\(r.err)")
        #expect(r.err.hasPrefix("Error: "))
        #expect(r.errLines.contains { $0.hasPrefix("Usage: ") })
    }
}

@Suite struct WavegenInputErrorTests {
    @Test func missingPresetFile() throws {
        let folder = try TemporaryFolder()
        let preset = folder.file("nope.json")
        let r = wavegen(["render", preset, "-o", folder.file("out.gif")])
        #expect(r.code == 66)
        #expect(r.errLines == ["\(preset): error: no such file"])
        #expect(try folder.contents().isEmpty)
    }

    @Test func unknownBundledName() throws {
        let folder = try TemporaryFolder()
        let r = wavegen(["render", "no-such-preset", "-o", folder.file("out.gif")])
        #expect(r.code == 66)
        #expect(r.errLines.first?.hasPrefix("no-such-preset: error: no such file and no bundled preset") == true, "\(r.err)")
    }

    @Test func badValueNamesFileAndKeyPath() throws {
        let folder = try TemporaryFolder()
        let preset = try folder.write("""
            {"size": [64, 64], "layers": [{"color": "#123456"}, {"color": "blu", "amplitude": 0.1}]}
            """, to: "bad.json")
        let r = wavegen(["render", preset, "-o", folder.file("out.gif")])
        #expect(r.code == 65)
        #expect(r.errLines == ["\(preset):1:63: error: at layers[1].color: expected a color (#RRGGBB, #RGB, rgb(), hsl() or a CSS name such as \"steelblue\"), got \"blu\" (did you mean \"blue\"?)"],
                "\(r.err)")
        #expect(try folder.contents() == ["bad.json"])
    }

    @Test func syntaxErrorIsBadData() throws {
        let folder = try TemporaryFolder()
        let preset = try folder.write("{\"fps\": 30,}", to: "broken.json")
        let r = wavegen(["plan", preset])
        #expect(r.code == 65)
        #expect(r.errLines == ["\(preset):1:12: error: trailing comma before '}'"], "\(r.err)")
    }

    @Test func badOverrideNamesTheKeyPath() throws {
        let folder = try TemporaryFolder()
        let r = wavegen(["render", "classic", "--set", "fps=0", "-o", folder.file("out.gif")])
        #expect(r.code == 65)
        #expect(r.errLines == ["--set: error: at fps: must be at least 0.1 and at most 240, got 0"], "\(r.err)")
    }

    @Test func outputInAMissingFolder() throws {
        let folder = try TemporaryFolder()
        let output = folder.file("missing/out.gif")
        let r = wavegen(["render", "classic", "-o", output])
        #expect(r.code == 73)
        #expect(r.errLines.first?.hasPrefix("Error: \(output): cannot write") == true, "\(r.err)")
        #expect(try folder.contents().isEmpty)
    }

    @Test func outputThatIsAFolder() throws {
        let folder = try TemporaryFolder()
        try FileManager.default.createDirectory(atPath: folder.file("out.gif"), withIntermediateDirectories: false)
        let r = wavegen(["render", "classic", "-o", folder.file("out.gif")])
        #expect(r.code == 73)
    }
}

@Suite struct WavegenPresetCommandTests {
    @Test func validateEveryBundledPreset() {
        let names = BundledPresets.sources.keys.sorted()
        #expect(names.count >= 2)
        let r = wavegen(["validate"] + names)
        #expect(r.code == 0, "\(r.err)")
        // Presets with a label also say which font file it uses.
        #expect(r.outLines == names.flatMap { name in
            (BundledPresets.sources[name]!.contains("\"label\"") ? ["\(name): font (default) → \(Label.defaultFont)"] : []) + ["\(name): ok"]
        })
        #expect(wavegen(["validate", "--quiet"] + names).out.isEmpty)
    }

    @Test func validateReportsTheWorst() throws {
        let folder = try TemporaryFolder()
        let bad = try folder.write("{\"level\": 2}", to: "bad.json")
        let r = wavegen(["validate", "classic", bad])
        #expect(r.code == 65)
        #expect(r.outLines == ["classic: ok"])
        #expect(r.errLines == ["\(bad):1:11: error: at level: must be at least 0 and at most 1, got 2"], "\(r.err)")
        #expect(wavegen(["validate", "classic", bad, folder.file("missing.json")]).code == 66)
    }

    @Test func presetsListsEveryBundledPreset() {
        let r = wavegen(["presets"])
        #expect(r.code == 0)
        let names = r.outLines.compactMap { $0.split(separator: " ").first.map(String.init) }
        #expect(names == BundledPresets.sources.keys.sorted())
        for line in r.outLines {
            #expect(line.split(separator: " ", maxSplits: 1).count == 2, "'\(line)' has no description")
        }
    }

    @Test func presetsShowPrintsTheJSON() {
        let r = wavegen(["presets", "show", "classic"])
        #expect(r.code == 0)
        let text = BundledPresets.sources["classic"]!
        #expect(r.out == (text.hasSuffix("\n") ? text : text + "\n"))
        #expect(wavegen(["presets", "show", "nope"]).code == 66)
    }

    @Test func planAsJSON() throws {
        let r = wavegen(["plan", "classic", "--json"])
        #expect(r.code == 0, "\(r.err)")
        let object = try JSONSerialization.jsonObject(with: Data(r.out.utf8))
        let root = try #require(object as? [String: Any])
        #expect(root["frames"] as? Int == 100)
        #expect(root["name"] as? String == "classic")
        #expect(root["fps"] as? Double == 50)
        #expect(root["duration"] as? Double == 2)
        let timing = try #require(root["timing"] as? [String: Any])
        let gif = try #require(timing["gif"] as? [String: Any])
        #expect((gif["delays"] as? [Int]).map { $0.count == 100 && $0.allSatisfy { $0 == 2 } } == true)
        let webp = try #require(timing["webp"] as? [String: Any])
        #expect((webp["delays"] as? [Int]).map { $0.count == 100 && $0.allSatisfy { $0 == 20 } } == true)
        #expect((root["layers"] as? [Any])?.count == 3)
    }

    @Test func planAsTable() {
        let r = wavegen(["plan", "classic"])
        #expect(r.code == 0)
        #expect(r.outLines.first?.hasPrefix("classic: 100 frames at 50 fps = 2 s") == true, "\(r.out)")
        #expect(r.out.contains("GIF: 100 frames, delays (cs) 2 × 100"))
        #expect(r.out.contains("WebP: 100 frames, delays (ms) 20 × 100"))
    }
}

@Suite struct WavegenRenderTests {
    /// A transparent scene through the whole GIF path: every frame the file shows must be exactly
    /// what the renderer drew, transparent pixels included, so disposal is right on real content.
    @Test func transparentGIFMatchesTheRenderer() throws {
        let folder = try TemporaryFolder()
        let output = folder.file("orb.gif")
        let r = wavegen(["render", "orb", "--size", "48x48", "-o", output, "--quiet"])
        #expect(r.code == 0, "\(r.err)")
        #expect(r.out.isEmpty)

        let config = try PresetLoader.standard.load("orb", overrides: [try #require(PresetOverride(parsing: "size=[48,48]"))])
        let plan = try LoopPlanner.plan(config)
        let renderer = FrameRenderer(config: config, plan: plan, format: .gif, label: try LabelTexts.rendered(for: config, plan: plan))
        try #require(renderer.palette.transparentIndex != nil)
        let frames = renderedFrames(renderer).map { gifRGBA($0, renderer.palette) }
        let decoded = try GIFDecoder.decode(try folder.bytes("orb.gif"))
        #expect(decoded.width == 48 && decoded.height == 48)
        #expect(decoded.frames.count == frames.count)
        #expect(decoded.frames.contains { $0.contains(0) }, "no transparent pixel: the test proves nothing")
        for k in 0..<min(frames.count, decoded.frames.count) {
            let same = decoded.frames[k] == frames[k]
            #expect(same, "frame \(k): \(firstDifference(decoded.frames[k], frames[k], width: 48) ?? "")")
        }
    }

    @Test func reportLine() throws {
        let folder = try TemporaryFolder()
        let output = folder.file("a.webp")
        let r = wavegen(["render", "classic", "--size", "32x32", "-o", output])
        #expect(r.code == 0, "\(r.err)")
        #expect(r.out.hasPrefix("\(output): 32×32, 100 frames, 2 s, "), "\(r.out)")
        let decoded = try WebPAnimationDecoder.decode(try folder.bytes("a.webp"))
        #expect(decoded.frames.count == 100)
        #expect(try folder.contents() == ["a.webp"])
    }

    @Test func explicitFormatWins() throws {
        let folder = try TemporaryFolder()
        let r = wavegen(["render", "classic", "--size", "16x16", "--fps", "25", "--format", "gif", "-o", folder.file("anim.bin"), "-q"])
        #expect(r.code == 0, "\(r.err)")
        let decoded = try GIFDecoder.decode(try folder.bytes("anim.bin"))
        #expect(decoded.frames.count == 50)
        #expect(decoded.delays.allSatisfy { $0 == 4 })
    }

    /// Shortcut numbers are read as numbers, in any spelling Double accepts, not re-parsed as JSON.
    @Test func shortcutNumbersInAnySpelling() {
        let r = wavegen(["plan", "classic", "--fps", ".5", "--scale", "+1", "--level", "4e-1"])
        #expect(r.code == 0, "\(r.err)")
        #expect(r.out.hasPrefix("classic: 8 frames at 0.5 fps"), "\(r.out)")
    }

    @Test func loopsOverride() throws {
        let folder = try TemporaryFolder()
        #expect(wavegen(["render", "classic", "--size", "16x16", "--set", "loops=3", "-o", folder.file("a.gif"), "-q"]).code == 0)
        #expect(wavegen(["render", "classic", "--size", "16x16", "--set", "loops=3", "-o", folder.file("a.webp"), "-q"]).code == 0)
        #expect(try GIFDecoder.decode(try folder.bytes("a.gif")).loops == 3)
        #expect(try WebPAnimationDecoder.decode(try folder.bytes("a.webp")).loops == 3)
    }

    /// A coarser edge step writes smaller files of the same animation: same frames and delays,
    /// the same colors away from the edges.
    @Test func coarserEdgeStepIsSmaller() throws {
        let folder = try TemporaryFolder()
        for format in ["gif", "webp"] {
            #expect(wavegen(["render", "classic", "-o", folder.file("fine.\(format)"), "-q"]).code == 0)
            let r = wavegen(["render", "classic", "--set", "edgeStep=12", "-o", folder.file("coarse.\(format)"), "-q"])
            #expect(r.code == 0, "\(r.err)")
            let fine = try folder.bytes("fine.\(format)"), coarse = try folder.bytes("coarse.\(format)")
            #expect(Double(coarse.count) < 0.9 * Double(fine.count), "\(format): \(coarse.count) vs \(fine.count) bytes")
            let a = format == "gif" ? try GIFDecoder.decode(fine).frames : try WebPAnimationDecoder.decode(fine).frames
            let b = format == "gif" ? try GIFDecoder.decode(coarse).frames : try WebPAnimationDecoder.decode(coarse).frames
            #expect(a.count == b.count)
            // The top-left corner is background in every frame: exactly the same color.
            #expect(zip(a, b).allSatisfy { Array($0.prefix(4)) == Array($1.prefix(4)) })
        }
    }
}
