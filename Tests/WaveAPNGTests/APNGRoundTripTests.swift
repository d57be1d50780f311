import Testing
import WaveAPNG
import WavePNG
import WaveTestSupport

/// A palette of `count` colours; every `translucentEvery`-th one half transparent, entry 0 fully
/// transparent when `clear`.
private func palette(_ count: Int, clear: Bool = false, translucentEvery: Int = 0, seed: UInt64 = 1) -> [UInt8] {
    var rng = SeededGenerator(state: seed)
    var out: [UInt8] = []
    var seen = Set<[UInt8]>()
    while out.count / 4 < count {
        let i = out.count / 4
        var c = [UInt8.random(in: 0...255, using: &rng), UInt8.random(in: 0...255, using: &rng), UInt8.random(in: 0...255, using: &rng), 255]
        if clear && i == 0 { c = [0, 0, 0, 0] }
        if translucentEvery > 0 && i > 0 && i % translucentEvery == 0 { c[3] = UInt8.random(in: 1...254, using: &rng) }
        if seen.insert(c).inserted { out += c }
    }
    return out
}

/// Frames like a wave scene's: a flat background, a band that moves, a few noisy pixels, and some
/// repeated frames (to be merged).
private func frames(width: Int, height: Int, colors: Int, count: Int, seed: UInt64) -> [[UInt8]] {
    var rng = SeededGenerator(state: seed)
    var out: [[UInt8]] = []
    for f in 0..<count {
        if f > 0 && f % 5 == 0 { out.append(out[f - 1]); continue }
        var frame = [UInt8](repeating: 0, count: width * height)
        for y in 0..<height {
            for x in 0..<width {
                let surface = Double(height) / 2 + 3 * sinTable((x + f * 2) % 16)
                frame[y * width + x] = UInt8(Double(y) > surface ? (x + y) % colors : (f % 3) % colors)
            }
        }
        for _ in 0..<3 { frame[Int.random(in: 0..<frame.count, using: &rng)] = UInt8(Int.random(in: 0..<colors, using: &rng)) }
        out.append(frame)
    }
    return out
}

private func sinTable(_ i: Int) -> Double {
    [0, 0.38, 0.71, 0.92, 1, 0.92, 0.71, 0.38, 0, -0.38, -0.71, -0.92, -1, -0.92, -0.71, -0.38][i]
}

/// Straight RGBA of palette indices (fully transparent entries as 0,0,0,0, as the APNG writes them).
private func expand(_ indices: [UInt8], _ palette: [UInt8]) -> [UInt8] {
    indices.flatMap { i -> [UInt8] in
        let c = Array(palette[Int(i) * 4..<Int(i) * 4 + 4])
        return c[3] == 0 ? [0, 0, 0, 0] : c
    }
}

private func encode(_ frames: [[UInt8]], delays: [Int], width: Int, height: Int, palette: [UInt8],
                    options: APNGEncoder.Options) throws -> (bytes: [UInt8], stats: APNGEncoder.Stats) {
    let encoder = try APNGEncoder(width: width, height: height, palette: palette, options: options)
    for (frame, delay) in zip(frames, delays) { try encoder.add(frame, delay: delay) }
    return (try encoder.finish(), encoder.stats)
}

@Suite("APNG round trip")
struct APNGRoundTripTests {
    @Test("every frame decodes to exactly its colours, at every bit depth, effort and kind of palette",
          arguments: [(2, false, 0), (3, true, 0), (4, false, 0), (5, true, 2), (16, false, 0), (17, true, 3), (200, true, 5), (256, false, 0), (256, true, 7)])
    func roundTrip(colors: Int, clear: Bool, translucentEvery: Int) throws {
        let (w, h) = (37, 23)
        let pal = palette(colors, clear: clear, translucentEvery: translucentEvery, seed: UInt64(colors))
        let input = frames(width: w, height: h, colors: colors, count: 12, seed: UInt64(colors) + 7)
        let delays = (0..<input.count).map { 1 + $0 % 3 }
        for effort in APNGEncoder.effortRange {
            let (bytes, stats) = try encode(input, delays: delays, width: w, height: h, palette: pal,
                                            options: .init(effort: effort, loops: 3, ticksPerSecond: 30))
            let decoded = try APNGDecoder(bytes)
            #expect(decoded.loops == 3)
            // Consecutive identical frames merge; the others come back exactly, with their delays.
            var expected: [(rgba: [UInt8], ticks: Int)] = []
            for (frame, delay) in zip(input, delays) {
                let rgba = expand(frame, pal)
                if let last = expected.last, last.rgba == rgba { expected[expected.count - 1].ticks += delay } else { expected.append((rgba, delay)) }
            }
            #expect(decoded.frames.count == expected.count, "effort \(effort)")
            #expect(stats.framesMerged == input.count - expected.count)
            for (n, (frame, want)) in zip(decoded.frames, expected).enumerated() {
                if let d = firstDifference(frame.rgba, want.rgba, width: w) {
                    Issue.record("colors \(colors) effort \(effort) frame \(n): \(d)")
                }
                #expect(abs(frame.seconds - Double(want.ticks) / 30) < 1e-12)
            }
            #expect(decoded.defaultImage == expected[0].rgba)
            // Pillow 13 keeps a frame blended over the canvas that asks to be disposed to the
            // previous canvas; the encoder never writes that combination.
            #expect(!decoded.frames.contains { $0.dispose == 2 && $0.blend == 1 }, "effort \(effort)")
        }
    }

    @Test("the bit depth is the fewest that holds the palette")
    func bitDepth() throws {
        for (colors, depth) in [(2, 1), (3, 2), (4, 2), (5, 4), (16, 4), (17, 8), (256, 8)] {
            let pal = palette(colors, clear: true)
            let (bytes, _) = try encode([[0, 1, 0, 1]], delays: [1], width: 2, height: 2, palette: pal, options: .init())
            #expect(try APNGDecoder(bytes).bitDepth == depth, "\(colors) colours")
        }
    }

    @Test("a reader without animation support shows the first frame")
    func defaultImage() throws {
        let pal = palette(9, clear: true, translucentEvery: 4)
        let input = frames(width: 20, height: 10, colors: 9, count: 4, seed: 3)
        let (bytes, _) = try encode(input, delays: [1, 1, 1, 1], width: 20, height: 10, palette: pal, options: .init())
        let still = try PNGImage(decoding: bytes, maximumPixels: 1000)
        #expect(still.rgba == expand(input[0], pal))
    }

    @Test("delays are exact fractions of a second, merged delays too")
    func delays() throws {
        let pal = palette(3)
        let a: [UInt8] = [0, 1, 2, 0], b: [UInt8] = [1, 1, 2, 0]
        let (bytes, _) = try encode([a, b, b, a], delays: [1, 1, 1, 1], width: 2, height: 2, palette: pal,
                                    options: .init(ticksPerSecond: 24))
        let decoded = try APNGDecoder(bytes)
        #expect(decoded.frames.map { $0.delay.numerator } == [1, 1, 1])
        #expect(decoded.frames.map { $0.delay.denominator } == [24, 12, 24])
    }

    @Test("the same frames give the same bytes")
    func deterministic() throws {
        let pal = palette(40, clear: true, translucentEvery: 3)
        let input = frames(width: 30, height: 30, colors: 40, count: 8, seed: 9)
        let one = try encode(input, delays: Array(repeating: 2, count: 8), width: 30, height: 30, palette: pal, options: .init())
        let two = try encode(input, delays: Array(repeating: 2, count: 8), width: 30, height: 30, palette: pal, options: .init())
        #expect(one.bytes == two.bytes)
    }

    @Test("frames it cannot write are refused with a message")
    func refusals() throws {
        #expect(throws: APNGError.self) { try APNGEncoder(width: 2, height: 2, palette: [UInt8](repeating: 0, count: 257 * 4)) }
        #expect(throws: APNGError.self) { try APNGEncoder(width: 0, height: 2, palette: [0, 0, 0, 255]) }
        #expect(throws: APNGError.self) { try APNGEncoder(width: 2, height: 2, palette: [0, 0, 0, 255], options: .init(effort: 9)) }
        let encoder = try APNGEncoder(width: 2, height: 2, palette: palette(3))
        #expect(throws: APNGError("frame 0 has 3 pixels, expected 4")) { try encoder.add([0, 0, 0], delay: 1) }
        #expect(throws: APNGError.self) { try encoder.add([0, 0, 0, 7], delay: 1) }
        #expect(throws: APNGError("no frames")) { try encoder.finish() }
    }

    @Test("a corrupted chunk is caught by the reader")
    func corrupted() throws {
        let (bytes, _) = try encode([[0, 1, 0, 1], [1, 1, 0, 1]], delays: [1, 1], width: 2, height: 2, palette: palette(2), options: .init())
        var broken = bytes
        broken[broken.count - 20] ^= 0x40
        #expect(throws: APNGError.self) { try APNGDecoder(broken) }
    }
}
