import Foundation
import Testing
import WaveGIF
import WaveKit
import WaveTestSupport
@testable import WavegenCLI
@testable import WaveBuild
@testable import WavePreview

/// A gradient preset (`gradient-drop`) through the GIF size tools a user reaches for: `gif.lossy`,
/// `--max-bytes`, and what the gradients cost against the same preset in flat colours.
@Suite struct GradientCommandTests {
    /// The flat colours docs/presets.md measures the gradients against.
    static let flat = ["--set", "layers[0].color=#B3E5FC", "--set", "layers[1].color=#4FC3F7", "--set", "layers[2].color=#0288D1"]

    /// Each pixel of a decoded GIF frame as shown on white (its matte): transparent pixels white.
    func onWhite(_ rgba: [UInt8]) -> [Int] {
        var out: [Int] = []
        out.reserveCapacity(rgba.count / 4 * 3)
        for p in stride(from: 0, to: rgba.count, by: 4) {
            let a = Int(rgba[p + 3])
            for c in 0..<3 { out.append((Int(rgba[p + c]) * a + 255 * (255 - a) + 127) / 255) }
        }
        return out
    }

    /// `gif.lossy` on gradient water: a smaller file, the same frames and delays, every pixel on
    /// the matte page within the bound of the exact file's.
    @Test func lossyKeepsItsBound() throws {
        let folder = try TemporaryFolder()
        #expect(wavegen(["render", "gradient-drop", "-o", folder.file("exact.gif"), "-q"]).code == 0)
        let r = wavegen(["render", "gradient-drop", "-o", folder.file("lossy.gif"), "--set", "gif.lossy=32", "-v"])
        #expect(r.code == 0, "\(r.err)")
        #expect(r.err.contains("GIF: lossy 32: "), "\(r.err)")
        let exactBytes = try folder.bytes("exact.gif"), lossyBytes = try folder.bytes("lossy.gif")
        #expect(lossyBytes.count < exactBytes.count, "lossy \(lossyBytes.count) bytes, exact \(exactBytes.count)")
        let exact = try GIFDecoder.decode(exactBytes), lossy = try GIFDecoder.decode(lossyBytes)
        #expect(lossy.frames.count == exact.frames.count && lossy.delays == exact.delays)
        var worst = 0
        for (a, b) in zip(exact.frames, lossy.frames) {
            for (x, y) in zip(onWhite(a), onWhite(b)) { worst = max(worst, abs(x - y)) }
        }
        #expect(worst > 0 && worst <= 32, "worst pixel \(worst) levels off")
    }

    /// `--max-bytes` on a gradient GIF: the file fits, the line says its PSNR against the
    /// full-quality file, and it decodes.
    @Test func maxBytesFitsAndSaysThePSNR() throws {
        let folder = try TemporaryFolder()
        let small = ["--set", "size=[48,64]"]
        #expect(wavegen(["render", "gradient-drop", "-o", folder.file("plain.gif"), "-q"] + small).code == 0)
        let budget = try folder.bytes("plain.gif").count * 3 / 4
        let r = wavegen(["render", "gradient-drop", "-o", folder.file("fit.gif"), "--max-bytes", String(budget)] + small)
        #expect(r.code == 0, "\(r.err)")
        let bytes = try folder.bytes("fit.gif")
        #expect(bytes.count <= budget)
        let line = try #require(r.errLines.first { $0.contains("fits") })
        #expect(line.hasPrefix(folder.file("fit.gif") + ": fits \(NumberText.grouped(budget)) bytes with "), "\(line)")
        #expect(line.contains(" dB PSNR against the full-quality file"), "\(line)")
        let db = line.split(separator: " ").reversed().drop { $0 != "dB" }.dropFirst().first.flatMap { Double($0) }
        #expect((db ?? 0) >= 30, "\(line)")
        #expect(try GIFDecoder.decode(bytes).frames.count >= 1)
    }

    /// The gradients cost at most 1.5× the bytes of the same preset in flat colours (docs/presets.md
    /// gives the sizes and the PSNR of each).
    @Test func gradientsCostAtMostHalfAgain() throws {
        let folder = try TemporaryFolder()
        #expect(wavegen(["render", "gradient-drop", "-o", folder.file("gradient.gif"), "-q"]).code == 0)
        #expect(wavegen(["render", "gradient-drop", "-o", folder.file("flat.gif"), "-q"] + GradientCommandTests.flat).code == 0)
        let gradient = try folder.bytes("gradient.gif").count, flat = try folder.bytes("flat.gif").count
        #expect(Double(gradient) <= 1.5 * Double(flat), "gradient \(gradient) bytes, flat \(flat)")
    }
}
