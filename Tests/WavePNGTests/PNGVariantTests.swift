import Foundation
import Testing
import WavePNG

/// Rider images come in every PNG flavour; each must decode to the same 8-bit RGBA that an
/// independent decoder (Pillow, which wrote the .rgba files beside them) sees.
@Suite struct PNGVariantTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/png")

    @Test(arguments: ["rgba8", "rgba16", "interlaced", "rgb8", "gray8", "gray-alpha", "palette", "palette-alpha"])
    func decodesLikePillow(name: String) throws {
        let png = [UInt8](try Data(contentsOf: Self.folder.appendingPathComponent("\(name).png")))
        let expected = [UInt8](try Data(contentsOf: Self.folder.appendingPathComponent("\(name).rgba")))
        let image = try PNGImage(decoding: png, maximumPixels: 1 << 20)
        #expect(image.width == 8 && image.height == 6)
        #expect(image.rgba.count == expected.count)
        var worst = 0
        for i in stride(from: 0, to: min(image.rgba.count, expected.count), by: 4) {
            let alpha = Int(expected[i + 3])
            worst = max(worst, abs(Int(image.rgba[i + 3]) - alpha))
            // The color of a fully transparent pixel does not matter.
            if alpha > 0 { for k in 0..<3 { worst = max(worst, abs(Int(image.rgba[i + k]) - Int(expected[i + k]))) } }
        }
        #expect(worst <= 1, "\(name): largest channel difference \(worst)")
    }

    @Test func refusesWhatIsNotAPNGOrTooLarge() throws {
        #expect(throws: PNGError(operation: "reading", message: "not a PNG file")) {
            try PNGImage(decoding: Array("hello".utf8), maximumPixels: 100)
        }
        let png = [UInt8](try Data(contentsOf: Self.folder.appendingPathComponent("rgba8.png")))
        #expect(throws: PNGError(operation: "reading", message: "image is 8×6 pixels; at most 40 pixels are read")) {
            try PNGImage(decoding: png, maximumPixels: 40)
        }
    }

    @Test func roundTripsThroughTheEncoder() throws {
        let png = [UInt8](try Data(contentsOf: Self.folder.appendingPathComponent("rgba8.png")))
        let image = try PNGImage(decoding: png, maximumPixels: 1 << 20)
        #expect(try PNGImage(decoding: try image.encoded(), maximumPixels: 1 << 20) == image)
    }
}
