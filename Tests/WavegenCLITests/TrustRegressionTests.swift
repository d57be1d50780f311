import Foundation
import Testing
import WaveTestSupport
import WaveGIF
import WaveWebP

/// Legal input that once crashed the built executable (a trap, exit 132, no message) or made it
/// work without bound, run as a user would, where the run must succeed and write its files
/// (Fixtures/hardening/cases-crash.json holds the cases that leave the folder as it was).
@Suite struct TrustRegressionTests {
    /// A rider partly or wholly off the canvas (above it, below it, at its edges, tiny or four
    /// boxes wide) is drawn where it is on the canvas and simply not elsewhere: every format is
    /// written, and with the rider wholly above the canvas a GIF's frames are those of the scene
    /// without it.
    @Test(arguments: [["rider.sink=-1"], ["rider.sink=1"], ["rider.sink=-1", "rider.width=4"], ["rider.x=1", "rider.sink=1"],
                      ["rider.x=0", "rider.sink=\"-48px\"", "rider.width=0.01"], ["rider.sink=1", "rider.width=4", "rider.anchor=[0, 0]"]])
    func riderOffTheCanvasRendersInEveryFormat(sets: [String]) throws {
        let folder = try TemporaryFolder()
        // A small, calm scene: the surface stays near the middle, so a rider sunk by -1 (the box's
        // height) is wholly above the canvas.
        let size = ["--size", "64x48", "--fps", "10", "--level", "0.5", "--set", "layers[0].amplitude=0.05"]
        let setArgs = (["rider.width=0.3"] + sets).flatMap { ["--set", $0] }
        for ext in ["gif", "webp", "png", "svg", "json"] {
            let r = try runExecutable(["render", "boat", "-q", "-o", "off.\(ext)"] + size + setArgs, in: folder)
            #expect(r.code == 0, "\(sets) \(ext): exit \(r.code)\n\(r.err.prefix(600))")
            #expect(r.err.isEmpty, "\(sets) \(ext): \(r.err.prefix(600))")
            #expect(folder.hasFile("off.\(ext)"), "\(sets) \(ext): not written")
        }
        let bare = try runExecutable(["render", "boat", "-q", "-o", "bare.gif", "--set", "rider=null"] + size, in: folder)
        #expect(bare.code == 0, "\(bare.err)")
        guard sets == ["rider.sink=-1"] else { return }
        let off = try GIFDecoder.decode(try folder.bytes("off.gif"))
        let without = try GIFDecoder.decode(try folder.bytes("bare.gif"))
        #expect(off.frames.count == without.frames.count)
        let same = off.frames == without.frames
        #expect(same, "\(sets): the off-canvas rider shows")
        let webp = try WebPAnimationDecoder.decode(try folder.bytes("off.webp"))
        #expect(webp.width == 64 && webp.height == 48)
        let lottie = try JSONSerialization.jsonObject(with: Data(try folder.bytes("off.json")))
        #expect(lottie is [String: Any])
        #expect(String(decoding: try folder.bytes("off.svg"), as: UTF8.self).contains("<svg"))
    }

    /// One-character file names for a preset, an output and a manifest: their folder is the
    /// current one (Foundation's path helpers trapped on them).
    @Test func oneCharacterFileNames() throws {
        let folder = try TemporaryFolder()
        try folder.writeFile(blinkPreset, at: "x")
        try folder.writeFile(#"{"jobs": [{"preset": "x", "output": "o.gif"}]}"#, at: "m")

        let render = try runExecutable(["render", "x", "-q", "-o", "y.gif"], in: folder)
        #expect(render.code == 0, "\(render.err)")
        #expect(try GIFDecoder.decode(try folder.bytes("y.gif")).width == 16)

        let validate = try runExecutable(["validate", "m"], in: folder)
        #expect(validate.code == 0, "\(validate.err)")
        #expect(validate.outLines == ["m: ok"])

        let list = try runExecutable(["build", "--list", "m"], in: folder)
        #expect(list.code == 0, "\(list.err)")
        #expect(list.outLines == ["o.gif  (jobs[0] (x) gif)"])

        let build = try runExecutable(["build", "-q", "m"], in: folder)
        #expect(build.code == 0, "\(build.err)")
        #expect(folder.hasFile("o.gif") && folder.hasFile("wavegen.lock"))
        #expect(strayTemporaries(try folder.contents()).isEmpty)

        let again = try runExecutable(["build", "--check", "m"], in: folder)
        #expect(again.code == 0, "\(again.err)")
    }

    /// A list as long as a manifest file allows is read in linear time (checking it for repeats
    /// was quadratic: 100 000 scales took minutes) and refused for its outputs before anything
    /// is expanded.
    @Test func longListsAreReadQuicklyAndRefused() throws {
        let folder = try TemporaryFolder()
        let scales = (1...100_000).map { String(format: "%.4f", Double($0) * 0.0001) }.joined(separator: ",")
        try folder.writeFile(#"{"jobs": [{"preset": "classic", "output": "o{scale}.gif", "scales": [\#(scales)]}]}"#, at: "m.json")
        let start = Date()
        let r = try runExecutable(["validate", "m.json"], in: folder)
        #expect(Date().timeIntervalSince(start) < 20, "validate took \(Date().timeIntervalSince(start)) s")
        #expect(r.code == 65)
        #expect(r.errLines == ["m.json:1:11: error: at jobs[0]: makes 100000 outputs (1 variant × 1 level × 100000 scales × 1 format); at most 10000 are allowed in one manifest"])
    }

    /// A thread or job count beyond the limit still works, clamped with one warning, and draws
    /// what one thread draws.
    @Test func largeThreadAndJobCountsAreClamped() throws {
        let folder = try TemporaryFolder()
        try folder.writeFile(blinkPreset, at: "p.json")
        try folder.writeFile(#"{"jobs": [{"preset": "p.json", "output": "out/{name}{scale}.gif", "scales": [1, 2, 3]}]}"#, at: "wavegen.json")

        let many = try runExecutable(["render", "p.json", "-q", "-j", "100000", "-o", "many.gif"], in: folder)
        #expect(many.code == 0, "\(many.err)")
        #expect(many.errLines.isEmpty, "--quiet drops the warning: \(many.err)")
        let loud = try runExecutable(["render", "p.json", "-j", "100000", "-o", "loud.gif"], in: folder)
        #expect(loud.code == 0, "\(loud.err)")
        #expect(loud.errLines == ["warning: --threads 100000 is more than wavegen runs at once; using 64"])
        let one = try runExecutable(["render", "p.json", "-q", "-j", "1", "-o", "one.gif"], in: folder)
        #expect(one.code == 0, "\(one.err)")
        #expect(try folder.bytes("many.gif") == folder.bytes("one.gif"))

        let build = try runExecutable(["build", "-j", "100000"], in: folder)
        #expect(build.code == 0, "\(build.err)")
        #expect(build.errLines == ["warning: --jobs 100000 is more than wavegen runs at once; using 64"])
        #expect(folder.regularFiles(under: "out") == ["p.gif", "p@2x.gif", "p@3x.gif"])

        let limit = try runExecutable(["build", "-q", "-j", "64", "--check"], in: folder)
        #expect(limit.code == 0, "\(limit.err)")
        #expect(limit.errLines.isEmpty)
    }
}
