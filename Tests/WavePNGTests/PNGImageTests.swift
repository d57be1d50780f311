import Testing
import WavePNG

@Suite struct PNGImageTests {
    /// Straight RGBA survives an encode and decode exactly, partial alpha included.
    @Test(arguments: [(1, 1), (3, 2), (17, 9)])
    func roundTrip(width: Int, height: Int) throws {
        let rgba = (0..<width * height * 4).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
        let png = try PNGImage(width: width, height: height, rgba: rgba).encoded()
        #expect(Array(png.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        let decoded = try PNGImage(decoding: png, maximumPixels: width * height)
        #expect(decoded.width == width && decoded.height == height)
        #expect(decoded.rgba == rgba)
    }

    @Test func refusesWhatIsNotAPNG() {
        #expect(throws: PNGError(operation: "reading", message: "not a PNG file")) {
            _ = try PNGImage(decoding: Array("GIF89a".utf8), maximumPixels: 100)
        }
    }

    /// The pixel limit is checked from the header, before the image is decoded.
    @Test func refusesImagesOverThePixelLimit() throws {
        let png = try PNGImage(width: 20, height: 20, rgba: [UInt8](repeating: 255, count: 1600)).encoded()
        #expect(throws: PNGError.self) { _ = try PNGImage(decoding: png, maximumPixels: 399) }
        #expect(try PNGImage(decoding: png, maximumPixels: 400).width == 20)
    }

    @Test func refusesATruncatedFile() throws {
        let png = try PNGImage(width: 8, height: 8, rgba: [UInt8](repeating: 90, count: 256)).encoded()
        #expect(throws: PNGError.self) { _ = try PNGImage(decoding: Array(png.prefix(png.count / 2)), maximumPixels: 64) }
    }
}
