import Foundation
import Testing
@testable import WaveAPNG
import WavePNG
import WaveTestSupport

/// `StillPNG`: 8-bit RGBA stills for embedding, checked by libpng's decoder.
@Suite struct StillPNGTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// An image with what embedded riders have: flat areas, soft edges, partial and full
    /// transparency, and some noise.
    static func sample(width: Int, height: Int, seed: UInt64) -> [UInt8] {
        var random = SeededGenerator(state: seed)
        var rgba = [UInt8](repeating: 0, count: width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                let dx = Double(x) - Double(width) / 2, dy = Double(y) - Double(height) / 2
                let inside = min(1, max(0, Double(min(width, height)) / 3 - (dx * dx + dy * dy).squareRoot()))
                let p = (y * width + x) * 4
                rgba[p] = UInt8(x * 255 / max(1, width - 1))
                rgba[p + 1] = UInt8(truncatingIfNeeded: 90 + Int.random(in: 0...3, using: &random))
                rgba[p + 2] = y % 7 == 0 ? 255 : 40
                rgba[p + 3] = UInt8((inside * 255).rounded())
            }
        }
        return rgba
    }

    /// libpng decodes every file to exactly the pixels given, at sizes from one pixel up, and the
    /// filter every row names is one of the five.
    @Test(arguments: [(1, 1), (2, 3), (17, 5), (64, 48), (123, 107)])
    func libpngDecodesExactlyThePixels(width: Int, height: Int) throws {
        let rgba = StillPNGTests.sample(width: width, height: height, seed: UInt64(width * 31 + height))
        let png = try StillPNG.encode(rgba: rgba, width: width, height: height)
        let decoded = try PNGImage(decoding: png, maximumPixels: 1 << 20)
        #expect(decoded.width == width && decoded.height == height)
        #expect(decoded.rgba == rgba)
        #expect(try StillPNG.encode(rgba: rgba, width: width, height: height) == png)
    }

    /// Each filter, applied to RGBA rows (the "left" byte four back), undone by a slow decoder
    /// written from the PNG specification gives the rows back.
    @Test func everyFilterUndoesOnRGBA() {
        let width = 9, height = 4, rowBytes = width * 4
        let rgba = StillPNGTests.sample(width: width, height: height, seed: 5)
        for kind in RowFilter.Kind.allCases {
            let filtered = RowFilter.filter(rgba, rowBytes: rowBytes, strategy: .uniform(kind), bytesPerPixel: 4)
            var out = [UInt8](repeating: 0, count: rgba.count)
            for y in 0..<height {
                #expect(filtered[y * (rowBytes + 1)] == kind.rawValue)
                for i in 0..<rowBytes {
                    let x = Int(filtered[y * (rowBytes + 1) + 1 + i])
                    let a = i >= 4 ? Int(out[y * rowBytes + i - 4]) : 0
                    let b = y > 0 ? Int(out[(y - 1) * rowBytes + i]) : 0
                    let c = i >= 4 && y > 0 ? Int(out[(y - 1) * rowBytes + i - 4]) : 0
                    let p = a + b - c, pa = abs(p - a), pb = abs(p - b), pc = abs(p - c)
                    let predictor = [0, a, b, (a + b) / 2, pa <= pb && pa <= pc ? a : pb <= pc ? b : c][Int(kind.rawValue)]
                    out[y * rowBytes + i] = UInt8((x + predictor) & 0xFF)
                }
            }
            #expect(out == rgba, "\(kind)")
        }
    }

    /// The bundled boat, as the vector writers embed it: smaller than libpng's default encoding.
    @Test func smallerThanLibpngsDefault() throws {
        let data = try Data(contentsOf: StillPNGTests.root.appendingPathComponent("presets/assets/boat.png"))
        let image = try PNGImage(decoding: [UInt8](data), maximumPixels: 1 << 20)
        let ours = try StillPNG.encode(rgba: image.rgba, width: image.width, height: image.height)
        let libpng = try image.encoded()
        #expect(ours.count < libpng.count * 85 / 100, "\(ours.count) bytes against libpng's \(libpng.count)")
        #expect(try PNGImage(decoding: ours, maximumPixels: 1 << 20) == image)
    }

    @Test func aWrongByteCountIsRefused() {
        let error = #expect(throws: StillPNGError.self) { try StillPNG.encode(rgba: [0, 0, 0], width: 1, height: 1) }
        #expect(error?.description == "PNG: a 1×1 RGBA image needs 4 bytes, got 3")
    }
}
