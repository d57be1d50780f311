import Foundation
import Testing
import WaveAPNG
import WaveKit
import WavePNG
import WaveTestSupport
@testable import WavegenCLI
@testable import WaveBuild
@testable import WavePreview

/// `render -o x.png`: what a player of the written APNG shows, against wavegen's own frames.
@Suite struct APNGOutputTests {
    /// Every bundled preset's APNG decodes (with the reference reader, which composes disposal and
    /// blending as the specification says) into exactly the `--frames` PNGs, each shown for exactly
    /// its share of the loop, looping as the preset says.
    @Test(arguments: BundledPresets.sources.keys.sorted())
    func decodesIntoWavegensFrames(name: String) throws {
        let folder = try TemporaryFolder()
        let r = wavegen(["render", name, "-o", folder.file("a.png"), "--frames", folder.file("frames"), "-q"])
        #expect(r.code == 0, "\(r.err)")
        let decoded = try APNGDecoder(try folder.bytes("a.png"))
        let names = try folder.contents("frames").sorted()
        let plan = wavegen(["plan", name, "--json"])
        guard case let .array(planned)? = try JSONParser.parse(plan.out)["timing"]?["apng"]?["delays"]?.value else {
            Issue.record("plan --json has no APNG delays: \(plan.out)")
            return
        }
        let delays = planned.compactMap { node -> Int? in if case let .number(n) = node.value { return Int(n) } else { return nil } }
        #expect(decoded.frames.count <= names.count && !decoded.frames.isEmpty)
        #expect(decoded.loops == 0)
        // Merged frames show for the planned delays of every frame they stand for; expand them back.
        var shown: [[UInt8]] = []
        for frame in decoded.frames {
            var ms = 0
            while shown.count < delays.count, ms < Int((frame.seconds * 1000).rounded()) {
                ms += delays[shown.count]
                shown.append(frame.rgba)
            }
            #expect(ms == Int((frame.seconds * 1000).rounded()), "\(name): a delay of \(frame.delay) is not the planned milliseconds")
        }
        #expect(shown.count == names.count)
        for (k, file) in names.enumerated() where k < shown.count {
            let ours = try PNGImage(decoding: try folder.bytes("frames/" + file), maximumPixels: 1 << 24)
            if let d = firstDifference(shown[k], ours.rgba, width: ours.width) {
                Issue.record("\(name) frame \(k): \(d)")
                break
            }
        }
        #expect(decoded.defaultImage == shown.first)
    }

    @Test(arguments: ["a.apng", "a.PNG"])
    func theExtensionSaysAPNG(file: String) throws {
        let folder = try TemporaryFolder()
        let r = wavegen(["render", "spinner", "-o", folder.file(file)])
        #expect(r.code == 0, "\(r.err)")
        #expect(r.out.contains("50 frames"), "\(r.out)")
        #expect(try APNGDecoder(try folder.bytes(file)).frames.count == 50)
    }

    @Test func aGIFFormatForAPNGNameIsRefused() throws {
        let folder = try TemporaryFolder()
        let r = wavegen(["render", "spinner", "-o", folder.file("anim.png"), "--format", "gif"])
        #expect(r.code == 64)
        #expect(r.errLines.first?.contains("a .png file is APNG") == true, "\(r.err)")
        #expect(try folder.contents().isEmpty)
    }

    @Test func effortChangesBytesNotPixels() throws {
        let folder = try TemporaryFolder()
        var sizes: [Int] = []
        var frames: [[[UInt8]]] = []
        for effort in 0...2 {
            let file = "e\(effort).png"
            let r = wavegen(["render", "spinner", "-o", folder.file(file), "--set", "apng.effort=\(effort)", "-q"])
            #expect(r.code == 0, "\(r.err)")
            let bytes = try folder.bytes(file)
            sizes.append(bytes.count)
            frames.append(try APNGDecoder(bytes).frames.map(\.rgba))
        }
        #expect(frames[0] == frames[1] && frames[1] == frames[2])
        #expect(sizes[2] < sizes[0], "\(sizes)")
        let bad = wavegen(["render", "spinner", "-o", folder.file("x.png"), "--set", "apng.effort=4"])
        #expect(bad.code == 65)
        #expect(bad.errLines.count == 1 && bad.err.contains("apng.effort"), "\(bad.err)")
        #expect(!FileManager.default.fileExists(atPath: folder.file("x.png")))
    }

    @Test func manifestsBuildAPNG() throws {
        let folder = try TemporaryFolder()
        try folder.writeFile("""
            { "jobs": [ { "preset": "spinner", "output": "out/{name}{scale}.{format}", "formats": ["apng", "gif"], "scales": [1, 2] },
                        { "name": "plain", "preset": "spinner", "output": "out/plain.png" } ] }
            """, at: "wavegen.json")
        let r = wavegen(["build", folder.file("wavegen.json"), "-q"])
        #expect(r.code == 0, "\(r.err)")
        let out = try folder.contents("out").sorted()
        #expect(out == ["plain.png", "spinner.gif", "spinner.png", "spinner@2x.gif", "spinner@2x.png"], "\(out)")
        let big = try APNGDecoder(try folder.bytes("out/spinner@2x.png"))
        #expect(big.width == 148 && big.height == 128)
        #expect(wavegen(["build", folder.file("wavegen.json"), "--check", "-q"]).code == 0)
    }
}

