import Foundation
import Testing
import WaveTestSupport
import WaveGIF
@testable import WavegenCLI
@testable import WaveBuild
@testable import WavePreview

/// `gif.lossy` as a user sets it: on the command line and in a preset.
@Suite struct GIFLossyCommandTests {
    /// `--set gif.lossy=N` makes a smaller GIF, says what it approximated under -v, and never
    /// changes the pixels by more than N.
    @Test func setOnTheCommandLine() throws {
        let folder = try TemporaryFolder()
        #expect(wavegen(["render", "spinner", "-o", folder.file("exact.gif"), "-q"]).code == 0)
        let r = wavegen(["render", "spinner", "-o", folder.file("lossy.gif"), "--set", "gif.lossy=48", "-v"])
        #expect(r.code == 0, "\(r.err)")
        #expect(r.err.contains("GIF: lossy 48: ") && r.err.contains("pixels shown within 48 levels of their color"), "\(r.err)")
        let exact = try GIFDecoder.decode(try folder.bytes("exact.gif"))
        let lossy = try GIFDecoder.decode(try folder.bytes("lossy.gif"))
        #expect(try folder.bytes("lossy.gif").count < folder.bytes("exact.gif").count)
        #expect(lossy.frames.count == exact.frames.count && lossy.delays == exact.delays)
        var worst = 0
        for (a, b) in zip(exact.frames, lossy.frames) {
            for i in a.indices { worst = max(worst, abs(Int(a[i]) - Int(b[i]))) }
        }
        #expect(worst > 0 && worst <= 48)
    }

    /// On a transparent preset with matte edges, -v says how many edge pixels show the matte, and
    /// on that white page no pixel is off by more than the bound, while off the page those edges
    /// are transparent where the exact file has them opaque.
    @Test func matteEdgesShowTheMatte() throws {
        let folder = try TemporaryFolder()
        #expect(wavegen(["render", "progress-bar", "-o", folder.file("exact.gif"), "-q"]).code == 0)
        let r = wavegen(["render", "progress-bar", "-o", folder.file("lossy.gif"), "--set", "gif.lossy=32", "-v"])
        #expect(r.code == 0, "\(r.err)")
        let said = r.err.split(separator: "\n").first { $0.contains("GIF: lossy 32: ") }.map(String.init) ?? ""
        let count = said.components(separatedBy: " of them edges left transparent, showing the matte").first?
            .split(separator: "(").last.flatMap { Int($0) } ?? 0
        #expect(count > 0, "\(r.err)")
        let exact = try GIFDecoder.decode(try folder.bytes("exact.gif"))
        let lossy = try GIFDecoder.decode(try folder.bytes("lossy.gif"))
        #expect(lossy.frames.count == exact.frames.count)
        var worst = 0, showing = 0
        for (a, b) in zip(exact.frames, lossy.frames) {
            for p in stride(from: 0, to: a.count, by: 4) {
                if a[p + 3] == 255 && b[p + 3] == 0 { showing += 1 }
                #expect(!(a[p + 3] == 0 && b[p + 3] == 255), "a transparent pixel made opaque")
                // On the white page: a transparent pixel shows 255 in every channel.
                for c in 0..<3 {
                    let x = a[p + 3] == 0 ? 255 : Int(a[p + c]), y = b[p + 3] == 0 ? 255 : Int(b[p + c])
                    worst = max(worst, abs(x - y))
                }
            }
        }
        #expect(showing > 0 && worst <= 32, "\(showing) pixels show the page, worst \(worst)")
    }

    @Test(arguments: [("gif.lossy=129", "--set: error: at gif.lossy: must be between 0 and 128, got 129"),
                      ("gif.lossy=-2", "--set: error: at gif.lossy: must be between 0 and 128, got -2"),
                      ("gif.lossy=1.5", "--set: error: at gif.lossy: expected a whole number, got 1.5")])
    func badValuesAreRefused(set: String, message: String) throws {
        let folder = try TemporaryFolder()
        let r = wavegen(["render", "spinner", "-o", folder.file("x.gif"), "--set", set])
        #expect(r.code == 65)
        #expect(r.errLines == [message], "\(r.err)")
        #expect(try folder.contents().isEmpty)
    }

    /// A vector output says the key has no meaning for it.
    @Test func vectorFormatsIgnoreIt() throws {
        let folder = try TemporaryFolder()
        let r = wavegen(["render", "classic", "-o", folder.file("x.svg"), "--set", "gif.lossy=8"])
        #expect(r.code == 0, "\(r.err)")
        #expect(r.err.contains("note: gif.lossy has no meaning for SVG; ignored"), "\(r.err)")
    }
}

/// `gif.colors` as a user sets it: a smaller color table, the shades chosen where the pixels fall.
@Suite struct GIFColorsCommandTests {
    /// Each asks for at most N entries: the decoded file's table holds no more, the flat colors
    /// are exact, the frames stay close to the full palette's, and the same inputs give the same bytes.
    @Test(arguments: [("classic", 32), ("classic", 16), ("orb", 32), ("boat", 24)])
    func aSmallerTableStaysCloseToTheFullOne(preset: String, colors: Int) throws {
        let folder = try TemporaryFolder()
        #expect(wavegen(["render", preset, "-o", folder.file("full.gif"), "-q"]).code == 0)
        let r = wavegen(["render", preset, "-o", folder.file("small.gif"), "--set", "gif.colors=\(colors)", "-v"])
        #expect(r.code == 0, "\(r.err)")
        #expect(r.err.contains("where the loop's pixels fall, in place of"), "\(r.err)")
        let again = wavegen(["render", preset, "-o", folder.file("again.gif"), "--set", "gif.colors=\(colors)", "-q"])
        #expect(again.code == 0)
        #expect(try folder.bytes("again.gif") == folder.bytes("small.gif"))
        let full = try GIFDecoder.decode(try folder.bytes("full.gif"))
        let small = try GIFDecoder.decode(try folder.bytes("small.gif"))
        // GIF tables come in powers of two; the colors the frames show are at most N (the key
        // entry included in N when the scene has no transparent one).
        var table = 2
        while table < colors { table *= 2 }
        #expect(small.globalColorCount <= table && full.globalColorCount > table,
                "\(small.globalColorCount) entries, \(full.globalColorCount) at full quality")
        var shown = Set<[UInt8]>()
        for f in small.frames { for p in stride(from: 0, to: f.count, by: 4) { shown.insert(Array(f[p..<p + 4])) } }
        #expect(shown.count <= colors, "\(shown.count) colors shown")
        #expect(try folder.bytes("small.gif").count < folder.bytes("full.gif").count)
        #expect(small.frames.count == full.frames.count && small.delays == full.delays)
        // Pixels that differ are edge shades moved within the ramps: most pixels are identical,
        // and the PSNR against the full palette's frames is high.
        var squared = 0.0, differing = 0, total = 0
        for (a, b) in zip(full.frames, small.frames) {
            for i in a.indices {
                let d = Double(Int(a[i]) - Int(b[i]))
                squared += d * d
            }
            for p in 0..<(a.count / 4) where a[p * 4..<p * 4 + 4] != b[p * 4..<p * 4 + 4] { differing += 1 }
            total += a.count / 4
        }
        let psnr = 10 * log10(255 * 255 / max(1e-9, squared / Double(total * 4)))
        // A rider's colors are themselves a median cut of its pixels at full quality: the
        // smaller table's are judged against those, so the boat's bound is lower.
        #expect(psnr > (preset == "boat" ? 40 : colors >= 32 ? 50 : 45), "\(preset) at \(colors): \(psnr) dB")
        #expect(differing * 5 < total, "\(differing) of \(total) pixels differ")
    }

    /// A vector output says the key has no meaning for it; WebP and APNG keep their colors.
    @Test func otherFormatsIgnoreIt() throws {
        let folder = try TemporaryFolder()
        let r = wavegen(["render", "classic", "-o", folder.file("x.json"), "--set", "gif.colors=16"])
        #expect(r.code == 0, "\(r.err)")
        #expect(r.err.contains("note: gif.colors has no meaning for Lottie; ignored"), "\(r.err)")
        #expect(wavegen(["render", "classic", "-o", folder.file("a.png"), "-q"]).code == 0)
        #expect(wavegen(["render", "classic", "-o", folder.file("b.png"), "-q", "--set", "gif.colors=16"]).code == 0)
        #expect(try folder.bytes("a.png") == folder.bytes("b.png"))
    }

    /// A budget with gif.colors set: the fit turns its knobs on top of the smaller table.
    @Test func aBudgetKeepsTheTable() throws {
        let folder = try TemporaryFolder()
        let r = wavegen(["render", "classic", "-o", folder.file("x.gif"), "--max-bytes", "28000", "--set", "gif.colors=32"])
        #expect(r.code == 0, "\(r.err)")
        #expect(r.err.contains("fits 28,000 bytes with "), "\(r.err)")
        let bytes = try folder.bytes("x.gif")
        #expect(bytes.count <= 28000)
        #expect(try GIFDecoder.decode(bytes).globalColorCount <= 32)
    }

    @Test func outOfRangeIsRefused() throws {
        let folder = try TemporaryFolder()
        let r = wavegen(["render", "classic", "-o", folder.file("x.gif"), "--set", "gif.colors=2"])
        #expect(r.code != 0)
        #expect(r.err.contains("gif.colors") && r.err.contains("must be between 3 and 256, got 2"), "\(r.err)")
        #expect(!FileManager.default.fileExists(atPath: folder.file("x.gif")))
    }
}
