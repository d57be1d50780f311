import Foundation
import Testing
import WaveGIF
import WaveKit
import WavePNG
import WaveWebP
import WaveTestSupport

/// The built executable, run as a user would.
@Suite struct EndToEndTests {
    /// classic, loaded and planned the way the command does it.
    func classic(format: OutputFormat) throws -> FrameRenderer {
        let config = try PresetLoader().load("classic")
        return FrameRenderer(config: config, plan: try LoopPlanner.plan(config), format: format)
    }

    @Test func executableIsFound() throws {
        let folder = try TemporaryFolder()
        let r = try runExecutable(["--version"], in: folder)
        #expect(r.code == 0)
        #expect(r.out.hasPrefix("wavegen "))
    }

    @Test func renderClassicGIF() throws {
        let folder = try TemporaryFolder()
        let r = try runExecutable(["render", "classic", "-o", "classic.gif"], in: folder)
        #expect(r.code == 0, "\(r.err)")
        #expect(r.out.hasPrefix("classic.gif: 128×128, 100 frames"), "\(r.out)")
        #expect(try folder.contents() == ["classic.gif"])

        let decoded = try GIFDecoder.decode(try folder.bytes("classic.gif"))
        #expect(decoded.version == "GIF89a")
        #expect(decoded.width == 128 && decoded.height == 128)
        #expect(decoded.frames.count == 100)
        #expect(decoded.delays == Array(repeating: 2, count: 100))
        #expect(decoded.repeats == 0)
        #expect(decoded.loops == 0)

        let renderer = try classic(format: .gif)
        #expect(decoded.globalColorCount >= renderer.palette.colors.count)
        let check = [0, 1, 37, 99].filter { $0 < decoded.frames.count }
        for (k, frame) in zip(check, renderedFrames(renderer, only: check)) {
            let truth = gifRGBA(frame, renderer.palette)
            let same = decoded.frames[k] == truth
            #expect(same, "frame \(k): \(firstDifference(decoded.frames[k], truth, width: 128) ?? "")")
        }
    }

    @Test func renderClassicWebPWithFrames() throws {
        let folder = try TemporaryFolder()
        let r = try runExecutable(["render", "classic", "-o", "classic.webp", "--frames", "frames"], in: folder)
        #expect(r.code == 0, "\(r.err)")
        #expect(try folder.contents() == ["classic.webp", "frames"])

        let decoded = try WebPAnimationDecoder.decode(try folder.bytes("classic.webp"))
        #expect(decoded.width == 128 && decoded.height == 128)
        #expect(decoded.frames.count == 100)
        #expect(decoded.durations == Array(repeating: 20, count: 100))
        #expect(decoded.loops == 0)

        let renderer = try classic(format: .webp)
        let first = rgba(renderedFrames(renderer, only: [0])[0], renderer.palette)
        #expect(decoded.frames.first == first, "frame 0: \(firstDifference(decoded.frames.first ?? [], first, width: 128) ?? "")")

        let names = try folder.contents("frames")
        #expect(names == (0..<100).map { String(format: "frame-%04d.png", $0) })
        for (k, name) in names.enumerated() where k < decoded.frames.count {
            let png = try PNGImage(decoding: try folder.bytes("frames/" + name), maximumPixels: 1 << 20)
            #expect(png.width == 128 && png.height == 128)
            #expect(png.rgba == decoded.frames[k], "\(name): \(firstDifference(png.rgba, decoded.frames[k], width: 128) ?? "")")
        }
    }

    @Test func failedRenderKeepsTheOldFile() throws {
        let folder = try TemporaryFolder()
        let old: [UInt8] = Array("previous contents, not an image".utf8)
        try Data(old).write(to: folder.url.appendingPathComponent("out.gif"))

        let bad = try runExecutable(["render", "classic", "--set", "fps=0", "-o", "out.gif"], in: folder)
        #expect(bad.code == 65)
        #expect(try folder.bytes("out.gif") == old)
        #expect(try folder.contents() == ["out.gif"])

        let preset = try folder.write("{\"layers\": [{\"color\": \"#12345\"}]}", to: "bad.json")
        let worse = try runExecutable(["render", preset, "-o", "out.gif"], in: folder)
        #expect(worse.code == 65)
        #expect(try folder.bytes("out.gif") == old)
        #expect(strayTemporaries(try folder.contents()).isEmpty)
    }

    /// A write that fails halfway through the render (a frame PNG cannot be written) must leave
    /// the previous output whole and no temporary files anywhere.
    @Test func failureDuringTheRenderKeepsTheOldFile() throws {
        let folder = try TemporaryFolder()
        let old: [UInt8] = Array(0..<200).map { UInt8($0) }
        try Data(old).write(to: folder.url.appendingPathComponent("out.webp"))
        try FileManager.default.createDirectory(atPath: folder.file("frames/frame-0040.png"), withIntermediateDirectories: true)

        let r = try runExecutable(["render", "classic", "--size", "32x32", "-o", "out.webp", "--frames", "frames"], in: folder)
        #expect(r.code == 73, "\(r.err)")
        #expect(r.err.contains("frame-0040.png"), "\(r.err)")
        #expect(try folder.bytes("out.webp") == old)
        #expect(try folder.contents() == ["frames", "out.webp"])
        let frames = try folder.contents("frames")
        #expect(strayTemporaries(frames).isEmpty, "\(frames)")
        #expect(frames.contains("frame-0000.png"))
        #expect(!frames.contains("frame-0099.png"))
    }

    /// The write of the output itself fails (the file size limit is hit halfway): the old file
    /// stays whole and the partly written temporary file is removed.
    @Test func failedWriteKeepsTheOldFileAndRemovesTheTemporary() throws {
        let folder = try TemporaryFolder()
        let old: [UInt8] = Array("the previous render".utf8)
        try Data(old).write(to: folder.url.appendingPathComponent("out.gif"))
        let r = try runExecutable(["render", "classic", "--size", "64x48", "-o", "out.gif"], in: folder, fileSizeLimit: 8)
        #expect(r.code == 73, "\(r.err)")
        #expect(r.err.hasPrefix("Error: out.gif: cannot write: "), "\(r.err)")
        #expect(try folder.bytes("out.gif") == old)
        #expect(try folder.contents() == ["out.gif"])
    }

    @Test func successfulRenderReplacesTheOldFile() throws {
        let folder = try TemporaryFolder()
        try Data("old".utf8).write(to: folder.url.appendingPathComponent("out.gif"))
        let r = try runExecutable(["render", "classic", "--size", "32x32", "-o", "out.gif", "-q"], in: folder)
        #expect(r.code == 0, "\(r.err)")
        #expect(r.out.isEmpty)
        #expect(try GIFDecoder.decode(try folder.bytes("out.gif")).frames.count == 100)
        #expect(try folder.contents() == ["out.gif"])
    }

    @Test(arguments: ["gif", "webp"])
    func rendersAreDeterministicWhateverTheThreads(format: String) throws {
        let folder = try TemporaryFolder()
        var outputs: [[UInt8]] = []
        for (i, threads) in [[], [], ["--threads", "1"], ["--threads", "2"], ["-j", "5"]].enumerated() {
            let name = "out\(i).\(format)"
            let r = try runExecutable(["render", "classic", "--size", "64x48", "-o", name, "-q"] + threads, in: folder)
            #expect(r.code == 0, "\(r.err)")
            outputs.append(try folder.bytes(name))
        }
        #expect(!outputs[0].isEmpty)
        for (i, o) in outputs.enumerated() {
            #expect(o == outputs[0], "render \(i) differs from the first")
        }
    }

    @Test func usageErrorsFromTheExecutable() throws {
        let folder = try TemporaryFolder()
        let r = try runExecutable(["rendr"], in: folder)
        #expect(r.code == 64)
        #expect(r.out.isEmpty)
        #expect(r.err.hasPrefix("Error: unknown subcommand 'rendr'"))
        let missing = try runExecutable(["render", "classic", "-o", "nowhere/out.gif"], in: folder)
        #expect(missing.code == 73)
        #expect(try folder.contents().isEmpty)
    }
}

/// `--frames` writes the frames the output shows, as `--help` and the README say.
@Suite struct FramesFolderTests {
    /// orb is transparent with GIF edges matted against white: rendering a GIF, every frame PNG
    /// is that GIF's frame (each pixel opaque or transparent); rendering a WebP, the PNGs are the
    /// WebP's frames and hold partly transparent edge pixels the GIF's do not.
    @Test func framesAreTheOutputsFrames() throws {
        let folder = try TemporaryFolder()
        for (output, frames) in [("orb.gif", "gif-frames"), ("orb.webp", "webp-frames")] {
            let r = try runExecutable(["render", "orb", "--size", "48x48", "-o", output, "--frames", frames, "-q"], in: folder)
            #expect(r.code == 0, "\(r.err)")
        }
        let gif = try GIFDecoder.decode(try folder.bytes("orb.gif")).frames
        let webp = try WebPAnimationDecoder.decode(try folder.bytes("orb.webp")).frames
        func png(_ path: String) throws -> [UInt8] { try PNGImage(decoding: try folder.bytes(path), maximumPixels: 1 << 20).rgba }
        func partlyTransparent(_ rgba: [UInt8]) -> Int { stride(from: 3, to: rgba.count, by: 4).filter { rgba[$0] != 0 && rgba[$0] != 255 }.count }
        #expect(try folder.contents("gif-frames").count == gif.count)
        for k in [0, gif.count / 2, gif.count - 1] {
            let frame = try png(String(format: "gif-frames/frame-%04d.png", k))
            // A transparent pixel's colour is not part of what it shows.
            let shown = stride(from: 0, to: frame.count, by: 4).flatMap { frame[$0 + 3] == 0 ? [0, 0, 0, 0] : Array(frame[$0..<$0 + 4]) }
            #expect(shown == gif[k], "GIF frame \(k)")
            #expect(partlyTransparent(frame) == 0)
        }
        for k in [0, webp.count - 1] {
            let frame = try png(String(format: "webp-frames/frame-%04d.png", k))
            #expect(frame == webp[k], "WebP frame \(k)")
            #expect(partlyTransparent(frame) > 0)
        }
    }
}
