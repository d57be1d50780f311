import Foundation
import Testing
import WaveTestSupport
import WaveKit
@testable import WavegenCLI
@testable import WaveBuild
@testable import WavePreview

/// Where `render` writes, and what it says about it.
@Suite struct RenderOutputTests {
    /// Frames an earlier, longer render left in a --frames folder are removed; nothing else is.
    /// `-v`'s palette line: parts that add up to the whole, for opaque and transparent scenes.
    /// With `gif.colors` 3 a transparent scene keeps its flat colors and no shades: none counted twice.
    @Test(arguments: [("classic", []), ("dark", []), ("orb", []), ("progress-bar", []), ("orb", ["--set", "gif.colors=3"])])
    func verbosePaletteLineAddsUp(preset: String, sets: [String]) throws {
        let folder = try TemporaryFolder()
        let r = wavegen(["render", preset, "-o", folder.file("x.gif"), "-v"] + sets)
        #expect(r.code == 0)
        let line = try #require(r.errLines.first { $0.hasPrefix("note: palette: ") })
        let numbers = line.split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) }
        // "N colors: F flat, S edge shades on R edge ramps (up to K steps each)[, 1 transparent]"
        #expect(numbers.count >= 5, "\(line)")
        let (total, flat, shades) = (numbers[0], numbers[1], numbers[2])
        let transparent = line.contains(", 1 transparent") ? 1 : 0
        #expect(flat + shades + transparent == total, "\(line)")
        #expect(transparent == (preset == "orb" || preset == "progress-bar" ? 1 : 0), "\(line)")
        if sets.isEmpty {
            #expect(line.contains(" edge shades on ") && line.contains(" steps each)"), "\(line)")
        } else {
            // orb's flat colors: its three opaque layers (the ring shares the front layer's blue).
            #expect(line.contains(": 3 flat, 0 edge shades, 1 transparent"), "\(line)")
        }
    }

    @Test func staleFramesAreRemoved() throws {
        let folder = try TemporaryFolder()
        let frames = folder.file("frames")
        #expect(wavegen(["render", "spinner", "-o", folder.file("a.gif"), "--frames", frames, "-q"]).code == 0)
        #expect(try folder.contents("frames").count == 50)
        _ = try folder.write("keep", to: "frames/notes.txt")
        _ = try folder.write("keep", to: "frames/frame-last.png")
        let r = wavegen(["render", "spinner", "--fps", "25", "-o", folder.file("a.gif"), "--frames", frames, "-q"])
        #expect(r.code == 0, "\(r.err)")
        let names = try folder.contents("frames")
        #expect(names.filter { $0.hasPrefix("frame-0") }.count == 25)
        #expect(names.contains("frame-0024.png") && !names.contains("frame-0025.png") && !names.contains("frame-0049.png"))
        #expect(names.contains("notes.txt") && names.contains("frame-last.png"))
    }

    @Test(arguments: [("a.gif", "webp"), ("anim.webp", "gif"), ("x.GIF", "webp")])
    func aFormatContradictingTheNameIsAUsageError(file: String, format: String) throws {
        let folder = try TemporaryFolder()
        let r = wavegen(["render", "spinner", "-o", folder.file(file), "--format", format])
        #expect(r.code == 64)
        #expect(r.errLines.first?.contains("contradicts the file name") == true, "\(r.err)")
        #expect(try folder.contents().isEmpty)
    }

    @Test func aFormatForANameThatSaysNothingIsFine() throws {
        let folder = try TemporaryFolder()
        let r = wavegen(["render", "spinner", "-o", folder.file("loader.bin"), "--format", "webp", "-q"])
        #expect(r.code == 0, "\(r.err)")
        #expect(try folder.bytes("loader.bin").starts(with: Array("RIFF".utf8)))
    }

    /// `-o -` writes the file's bytes to standard output and the status line to stderr.
    @Test func dashWritesToStandardOutput() throws {
        let folder = try TemporaryFolder()
        #expect(wavegen(["render", "spinner", "-o", folder.file("a.gif"), "-q"]).code == 0)
        let captured = CapturedConsole()
        let code = Wavegen.run(["render", "spinner", "-o", "-", "--format", "gif"], console: captured.console)
        #expect(code == 0, "\(captured.err)")
        #expect(captured.outBytes == (try folder.bytes("a.gif")))
        #expect(captured.out.isEmpty)
        #expect(captured.err.hasPrefix("(standard output): 74×64, 50 frames"), "\(captured.err)")
        #expect(try folder.contents() == ["a.gif"], "a file named '-' was written")
    }

    @Test func dashRefusesATerminalAndNeedsAFormat() {
        let terminal = CapturedConsole()
        terminal.outIsTerminal = true
        #expect(Wavegen.run(["render", "spinner", "-o", "-", "--format", "gif"], console: terminal.console) == 64)
        #expect(terminal.err.hasPrefix("Error: will not write GIF to a terminal"), "\(terminal.err)")
        #expect(terminal.outBytes.isEmpty)
        let r = wavegen(["render", "spinner", "-o", "-"])
        #expect(r.code == 64)
        #expect(r.errLines.first == "Error: writing to standard output needs --format gif|webp|apng|svg|lottie|dotlottie")
    }

    /// An SVG has no raster frames: --frames is a usage error; GIF-only keys get a note.
    @Test func svgRefusesFramesAndNotesGIFKeys() throws {
        let folder = try TemporaryFolder()
        let r = wavegen(["render", "classic", "-o", folder.file("a.svg"), "--frames", folder.file("frames")])
        #expect(r.code == 64)
        #expect(r.errLines.first?.hasPrefix("Error: --frames writes raster frames; an SVG has none") == true, "\(r.err)")
        #expect(!FileManager.default.fileExists(atPath: folder.file("a.svg")))
        let spinner = wavegen(["render", "spinner", "-o", folder.file("spinner.svg")])
        #expect(spinner.code == 0)
        #expect(spinner.errLines == ["note: gif.edges has no meaning for SVG; ignored"], "\(spinner.err)")
        let orb = wavegen(["render", "orb", "-o", folder.file("orb.svg")])
        #expect(orb.code == 0 && orb.err.isEmpty, "\(orb.err)")
        let text = String(decoding: try folder.bytes("orb.svg"), as: UTF8.self)
        #expect(text.hasPrefix("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"160\" height=\"160\""))
        #expect(text.contains("role=\"img\"") && text.contains("<title>") && text.contains("@keyframes"))
        #expect(!text.contains("<script") && !text.contains("xlink"))
        #expect(text.contains("prefers-reduced-motion:reduce"))
    }

    /// A Lottie is written as .json or with --format lottie; it has no raster frames; a folder that
    /// does not exist gets one line and no file.
    @Test func lottieByExtensionOrFormat() throws {
        let folder = try TemporaryFolder()
        let r = wavegen(["render", "classic", "-o", folder.file("a.json")])
        #expect(r.code == 0 && r.err.isEmpty, "\(r.err)")
        #expect(r.out == folder.file("a.json") + ": 128×128, 2 s, \(NumberText.bytes(try folder.bytes("a.json").count))\n")
        let text = String(decoding: try folder.bytes("a.json"), as: UTF8.self)
        #expect(text.hasPrefix("{\"v\":\"5.7.0\",\"nm\":\"classic\",\"fr\":50,\"ip\":0,\"op\":100,\"w\":128,\"h\":128,"))
        let piped = CapturedConsole()
        #expect(Wavegen.run(["render", "classic", "--format", "lottie", "-o", "-"], console: piped.console) == 0)
        #expect(piped.outBytes == (try folder.bytes("a.json")))
        let frames = wavegen(["render", "classic", "-o", folder.file("b.json"), "--frames", folder.file("frames")])
        #expect(frames.code == 64)
        #expect(frames.errLines.first == "Error: --frames writes raster frames; a Lottie has none (render a .webp or .gif with --frames to see them)")
        let contradiction = wavegen(["render", "classic", "--format", "lottie", "-o", folder.file("c.svg")])
        #expect(contradiction.code == 64)
        #expect(contradiction.errLines.first == "Error: --format lottie contradicts the file name '\(folder.file("c.svg"))' (a .svg file is SVG); name it .json or drop --format")
        let missing = wavegen(["render", "orb", "-o", folder.file("no/such/folder/x.json")])
        #expect(missing.code == 73)
        #expect(missing.errLines == ["Error: \(folder.file("no/such/folder/x.json")): cannot write: folder \(folder.file("no/such/folder")) does not exist"])
        let spinner = wavegen(["render", "spinner", "-o", folder.file("spinner.json")])
        #expect(spinner.errLines == ["note: gif.edges has no meaning for Lottie; ignored"], "\(spinner.err)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == ["a.json", "spinner.json"])
    }

    /// Identical frames merged into fewer images: the line says both numbers.
    @Test func mergedFramesAreCountedBothWays() throws {
        let folder = try TemporaryFolder()
        let flat = (0..<3).flatMap { ["--set", "layers[\($0)].amplitude=0"] }
        for format in ["gif", "webp", "png"] {
            let r = wavegen(["render", "classic", "-o", folder.file("flat.\(format)")] + flat)
            #expect(r.code == 0, "\(r.err)")
            #expect(r.out.contains(", 100 frames (1 image in the file), 2 s, "), "\(format): \(r.out)")
            let moving = wavegen(["render", "spinner", "-o", folder.file("s.\(format)")])
            #expect(moving.out.contains(", 50 frames, 1 s, "), "\(format): \(moving.out)")
        }
    }

    /// A shortcut's problem is named by the option the user typed, and a --set by --set.
    @Test func shortcutProblemsNameTheirOption() {
        #expect(wavegen(["render", "classic", "--scale", "0", "-o", "/tmp/x.gif"]).errLines.first?.hasPrefix("--scale: error: at scale: ") == true)
        let background = wavegen(["render", "classic", "--background", "whte", "-o", "/tmp/x.gif"])
        #expect(background.errLines == ["--background: error: at background: expected a color (#RRGGBB, #RGB, rgb(), hsl() or a CSS name such as \"steelblue\"), got \"whte\" (did you mean \"white\"?)"])
        #expect(wavegen(["render", "classic", "--set", "fps=0", "-o", "/tmp/x.gif"]).errLines.first?.hasPrefix("--set: error: at fps: ") == true)
    }

    /// A mistyped bundled name gets a suggestion, on render and presets show alike.
    @Test func mistypedPresetNamesGetASuggestion() {
        let r = wavegen(["render", "clasic", "-o", "/tmp/x.gif"])
        #expect(r.code == 66)
        #expect(r.errLines == ["clasic: error: no such file and no bundled preset of that name (did you mean \"classic\"?; bundled: boat, classic, dark, drop, gradient-drop, heart, orb, progress-bar, progress-bar-horizontal, spinner)"])
        #expect(wavegen(["presets", "show", "spiner"]).errLines.first?.contains("(did you mean \"spinner\"?; bundled: ") == true)
        #expect(wavegen(["render", "zzzzzz", "-o", "/tmp/x.gif"]).errLines.first?.contains("did you mean") == false)
    }

    /// A large transparent GIF gets one line of advice; small or opaque ones, and -q, get none.
    @Test func largeTransparentGIFsGetAHint() throws {
        let folder = try TemporaryFolder()
        let orb = wavegen(["render", "orb", "-o", folder.file("orb.gif")])
        #expect(orb.errLines.filter { $0.hasPrefix("hint: this transparent GIF is 389.6 kB; APNG or WebP keep true alpha") && $0.contains("--set gif.edges=cut") }.count == 1, "\(orb.err)")
        // Advice already taken is not repeated.
        let cut = wavegen(["render", "orb", "--set", "gif.edges=cut", "-o", folder.file("cut.gif")])
        #expect(cut.errLines.count == 1 && !cut.err.contains("gif.edges=cut shrinks"), "\(cut.err)")
        #expect(wavegen(["render", "orb", "-o", folder.file("orb.gif"), "-q"]).err.isEmpty)
        #expect(wavegen(["render", "orb", "--background", "#FFFFFF", "-o", folder.file("white.gif")]).err.isEmpty)
        #expect(wavegen(["render", "orb", "-o", folder.file("orb.webp")]).err.isEmpty)
        #expect(wavegen(["render", "spinner", "-o", folder.file("spinner.gif")]).err.isEmpty)
    }

    /// -v says how the loop closes, the palette once, and what the encoder did.
    @Test func verboseDescribesThePlanOnce() throws {
        let folder = try TemporaryFolder()
        let r = wavegen(["render", "spinner", "-o", folder.file("s.gif"), "-v"])
        #expect(r.code == 0)
        #expect(r.errLines.filter { $0.hasPrefix("note: plan: 50 frames at 50 fps = 1 s") }.count == 1, "\(r.err)")
        #expect(r.errLines.filter { $0.contains("palette") }.count == 1, "\(r.err)")
        #expect(r.errLines.contains { $0.hasPrefix("note: GIF: ") })
    }
}

/// Values on the command line mean what they look like.
@Suite struct OverrideValueTests {
    @Test func aBareDecimalIsANumberAndBrokenJSONIsSaid() throws {
        let folder = try TemporaryFolder()
        #expect(wavegen(["render", "spinner", "--set", "level=.5", "-o", folder.file("a.gif"), "-q"]).code == 0)
        let broken = wavegen(["render", "spinner", "--set", ##"layers[0]={"color":"#000",}"##, "-o", folder.file("b.gif")])
        #expect(broken.code == 64)
        #expect(broken.errLines.first?.hasPrefix("Error: --set layers[0]: the value is not valid JSON (column ") == true, "\(broken.err)")
    }

    @Test func previewWritesOnlyAnHTMLFile() {
        for name in ["-", "p.gif"] {
            let r = wavegen(["preview", "spinner", "-o", name])
            #expect(r.code == 64)
            #expect(r.errLines.first == "Error: preview writes an HTML page; name a file such as preview.html, got '\(name)'")
        }
    }

    @Test func oneFrameIsOneFrame() {
        let r = wavegen(["plan", "classic", "--set", "duration=0.02", "--set", "minFrames=1"])
        #expect(!r.out.contains("1 frames"), "\(r.out)")
    }
}
