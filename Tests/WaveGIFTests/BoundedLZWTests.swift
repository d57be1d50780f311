import Foundation
import Testing
@testable import WaveGIF
import WaveTestSupport

/// One image written to a file of its own: by giflib's coder (`pixels`), or as the blocks
/// `BoundedLZW` codes for the same pixels with no freedom at all.
private func singleImage(_ pixels: [UInt8], width: Int, height: Int, colors: Int, bounded: Bool, lookahead: Int = 0,
                         shades: Int = 0, shortcuts: Bool = true, writtenOut: UnsafeMutablePointer<[UInt8]>? = nil) throws -> [UInt8] {
    let palette = (0..<colors).map { (i: Int) -> RGBA8 in RGBA8(UInt8(i), UInt8(255 - i), UInt8((i * 7) & 0xFF)) }
    let stream = try GIFStream(width: width, height: height, colors: palette)
    let codeSize = GIFStream.minimumCodeSize(maxIndex: Int(pixels.max() ?? 0))
    let rect = PixelRect(x: 0, y: 0, width: width, height: height)
    if bounded {
        // Values `shades` apart are 16 × `shades` levels apart, within the tolerance (0: only a
        // pixel's own value is within tolerance of it).
        var error = [UInt8](repeating: 255, count: 256 * 256)
        for v in 0..<colors { for t in 0..<colors where abs(v - t) <= shades { error[t << 8 | v] = UInt8(16 * abs(v - t)) } }
        let zero = [UInt8](repeating: 0, count: pixels.count), tolerance = [UInt8](repeating: UInt8(16 * shades), count: pixels.count)
        var written: [UInt8] = []
        let coded = pixels.withUnsafeBufferPointer { p in
            zero.withUnsafeBufferPointer { z in
              tolerance.withUnsafeBufferPointer { tol in
                error.withUnsafeBufferPointer { e in
                    let coder = BoundedLZW()
                    coder.takesShortcuts = shortcuts
                    return coder.encode(BoundedLZW.Choices(preferred: p, target: p, tolerance: tol, keyError: z, error: e, key: -1),
                                        count: pixels.count, minimumCodeSize: codeSize, lookahead: lookahead, written: &written)
                }
              }
            }
        }
        let blocks = try #require(coded)
        if shades == 0 { #expect(written == pixels) }
        if let out = writtenOut { out.pointee = written }
        try stream.putFrame(blocks: blocks, rect: rect, codeSize: codeSize, delay: 0, disposal: 0, transparentIndex: Int?.none)
    } else {
        try stream.putFrame(pixels, rect: rect, codeSize: codeSize, delay: 0, disposal: 0, transparentIndex: Int?.none)
    }
    return try stream.close()
}

/// Runs of random length and value, with stretches of noise.
private func runsAndNoise(count: Int, colors: Int, seed: UInt64) -> [UInt8] {
    var random = SeededGenerator(state: seed)
    var pixels = [UInt8](repeating: 0, count: count)
    var i = 0
    while i < pixels.count {
        let run = Int.random(in: 1...40, using: &random)
        let v = UInt8(Int.random(in: 0..<colors, using: &random))
        let noisy = Int.random(in: 0..<4, using: &random) == 0
        for k in i..<min(pixels.count, i + run) { pixels[k] = noisy ? UInt8(Int.random(in: 0..<colors, using: &random)) : v }
        i += run
    }
    return pixels
}

@Suite struct BoundedLZWTests {
    /// With no freedom the coder is giflib's: byte for byte, over code sizes 2…8, runs, noise, a
    /// single pixel, and images long enough to fill the table (clear codes) and span many blocks.
    @Test(arguments: [(1, 1, 2), (7, 5, 2), (64, 64, 4), (200, 150, 16), (300, 200, 256), (97, 61, 200), (512, 512, 3)])
    func exactCodingIsGiflibs(width: Int, height: Int, colors: Int) throws {
        let pixels = runsAndNoise(count: width * height, colors: colors, seed: UInt64(width * 1000 + colors))
        let giflib = try singleImage(pixels, width: width, height: height, colors: colors, bounded: false)
        let ours = try singleImage(pixels, width: width, height: height, colors: colors, bounded: true)
        #expect(ours == giflib, "\(width)×\(height), \(colors) colors: \(ours.count) bytes vs giflib's \(giflib.count)")
    }

    /// Flexible parsing (a string may stop short of the longest match when the next one then
    /// reaches further) writes streams giflib decodes to exactly the values the coder says it
    /// wrote, each within the tolerance, at every lookahead, exact or with freedom; and with
    /// freedom it finds shorter codings than greedy parsing.
    @Test func flexibleParsingDecodesToWhatItWrote() throws {
        // Runs and noise; and a wave scene's kind of image: two colors meeting at a sine, the edge
        // pixels in 14 shades of coverage between them.
        let wave = (0..<(160 * 120)).map { p -> UInt8 in
            let x = Double(p % 160), y = Double(p / 160)
            let coverage = min(1, max(0, y - 60 - 18 * sin(x / 9) - 7 * sin(x / 4 + 1)))
            return UInt8((coverage * 15).rounded())
        }
        let images = [(64, 64, 4), (200, 150, 16), (97, 61, 200)].map { (width, height, colors) in
            (width, height, colors, runsAndNoise(count: width * height, colors: colors, seed: UInt64(width * 1000 + colors)))
        } + [(160, 120, 16, wave)]
        var shorter: [String] = []
        for (width, height, colors, pixels) in images {
            let palette = (0..<colors).map { (i: Int) -> RGBA8 in RGBA8(UInt8(i), UInt8(255 - i), UInt8((i * 7) & 0xFF)) }
            for shades in [0, 1, 2] {
                let greedy = try singleImage(pixels, width: width, height: height, colors: colors, bounded: true, shades: shades)
                let greedySlow = try singleImage(pixels, width: width, height: height, colors: colors, bounded: true, shades: shades,
                                                 shortcuts: false)
                let sameGreedy = greedy == greedySlow
                #expect(sameGreedy, "\(width)×\(height), ±\(shades), greedy: the shortcuts change what is written")
                for lookahead in [1, 8, 64] {
                    var written: [UInt8] = []
                    let file = try singleImage(pixels, width: width, height: height, colors: colors, bounded: true,
                                               lookahead: lookahead, shades: shades, writtenOut: &written)
                    let decoded = try GIFDecoder.decode(file)
                    let what = "\(width)×\(height), ±\(shades), lookahead \(lookahead)"
                    #expect(decoded.frames == [expand(written, palette, transparent: nil)], "\(what)")
                    // Each step searching afresh and in full (the slow form) writes the same file and values.
                    var afresh: [UInt8] = []
                    let slow = try singleImage(pixels, width: width, height: height, colors: colors, bounded: true,
                                               lookahead: lookahead, shades: shades, shortcuts: false, writtenOut: &afresh)
                    #expect(slow == file && afresh == written, "\(what): the shortcuts change what is written")
                    #expect(zip(written, pixels).allSatisfy { abs(Int($0) - Int($1)) <= shades }, "\(what)")
                    if shades > 0 && file.count < greedy.count { shorter.append(what) }
                }
            }
        }
        #expect(shorter.count >= 4, "shorter than greedy: \(shorter)")
    }

    /// Noisy frames over a smooth ramp palette (with and without a transparent index): every
    /// decoded pixel within the bound of its exact color, flat pixels exact, fewer bytes than
    /// exact coding, the same bytes every time; checked pixel by pixel against the exact frames.
    @Test(arguments: [(nil, 4), (nil, 24), (0, 4), (0, 24)] as [(Int?, Int)])
    func noisyFramesKeepTheBound(transparent: Int?, bound: Int) throws {
        let width = 48, height = 40
        var colors = (0..<64).map { (i: Int) -> RGBA8 in RGBA8(UInt8(i * 4), UInt8(128 + i), UInt8(255 - i * 2)) }
        if let t = transparent { colors[t] = RGBA8(0, 0, 0, 0) }
        var random = SeededGenerator(state: 21)
        var frames: [[UInt8]] = []
        for k in 0..<8 {
            var f = [UInt8](repeating: 20, count: width * height)
            for y in 0..<height {
                for x in 0..<width {
                    let p = y * width + x
                    // A flat band that moves, a transparent hole, and a noisy ramp elsewhere.
                    if (x + k * 3) % 24 < 8 { f[p] = 40 } else if transparent != nil && y < 6 && x < 10 + k { f[p] = 0 } else {
                        f[p] = UInt8(min(63, max(1, x + Int.random(in: -3...3, using: &random))))
                    }
                }
            }
            frames.append(f)
        }
        let delays = [Int](repeating: 4, count: frames.count)
        func encode(_ lossy: Int) throws -> [UInt8] {
            let encoder = try GIFEncoder(width: width, height: height, colors: colors, transparentIndex: transparent, loops: 0, lossy: lossy)
            for f in frames { try encoder.add(f, delay: 4) }
            return try encoder.finish()
        }
        let exact = try encode(0), lossy = try encode(bound)
        #expect(lossy.count < exact.count)
        #expect(try encode(bound) == lossy)
        let decoded = try GIFDecoder.decode(lossy)
        #expect(decoded.frames.count == frames.count && decoded.delays == delays)
        var differing = 0
        for (k, frame) in frames.enumerated() where k < decoded.frames.count {
            let truth = expand(frame, colors, transparent: transparent)
            for y in 0..<height {
                for x in 0..<width {
                    let p = y * width + x
                    let error = channelError(decoded.frames[k], truth, p)
                    let flat = isFlat(frame, p, width: width)
                    #expect(error <= (flat ? 0 : bound), "frame \(k) pixel \(x),\(y): off by \(error)\(flat ? ", flat" : "")")
                    if error > 0 { differing += 1 }
                }
            }
        }
        #expect(differing > 0)
    }

    /// Frames with a matte: a ramp from the matte (white) to blue over a transparent background,
    /// its pixels marked as blended against the matte in every other column. Judged on the matte,
    /// every pixel keeps the bound; only marked pixels within the bound of the matte are ever shown
    /// transparent, and some are; without the plane no pixel is; the plane makes the file smaller.
    @Test(arguments: [8, 40])
    func markedPixelsMayShowTheMatte(bound: Int) throws {
        let width = 40, height = 24
        let matte = RGBA8(255, 255, 255)
        var colors = [RGBA8(0, 0, 0, 0)]
        for i in 0..<32 { colors.append(RGBA8(UInt8(255 - i * 7), UInt8(255 - i * 3), 255)) }
        var frames: [[UInt8]] = [], planes: [[UInt8]] = []
        for k in 0..<6 {
            var f = [UInt8](repeating: 0, count: width * height), m = f
            for y in 0..<height {
                for x in 0..<width where x >= 4 + k {
                    let p = y * width + x
                    f[p] = UInt8(1 + min(31, (x - 4 - k) + (y % 3)))
                    m[p] = x % 2 == 0 ? 1 : 0
                }
            }
            frames.append(f)
            planes.append(m)
        }
        func encode(_ lossy: Int, planes: [[UInt8]]?) throws -> [UInt8] {
            let encoder = try GIFEncoder(width: width, height: height, colors: colors, transparentIndex: 0, loops: 0,
                                         lossy: lossy, matte: matte)
            for (k, f) in frames.enumerated() { try encoder.add(f, delay: 4, matte: planes?[k]) }
            return try encoder.finish()
        }
        let withPlane = try encode(bound, planes: planes), without = try encode(bound, planes: nil)
        #expect(withPlane.count < without.count, "\(withPlane.count) bytes with the plane, \(without.count) without")
        #expect(try encode(bound, planes: planes) == withPlane)
        for (file, marked) in [(withPlane, planes), (without, nil)] {
            let decoded = try GIFDecoder.decode(file)
            #expect(decoded.frames.count == frames.count)
            var shownMatte = 0
            for (k, frame) in frames.enumerated() where k < decoded.frames.count {
                let truth = expand(frame, colors, transparent: 0)
                for p in frame.indices {
                    let shown = decoded.frames[k]
                    if shown[p * 4 + 3] == 0 && truth[p * 4 + 3] == 255 {
                        shownMatte += 1
                        let c = colors[Int(frame[p])]
                        let error = max(255 - Int(c.r), 255 - Int(c.g), 255 - Int(c.b))
                        #expect(marked?[k][p] == 1, "frame \(k) pixel \(p): transparent but not marked")
                        #expect(error <= bound, "frame \(k) pixel \(p): \(error) from the matte")
                    } else {
                        #expect(channelError(shown, truth, p) <= bound, "frame \(k) pixel \(p)")
                    }
                }
            }
            #expect((shownMatte > 0) == (marked != nil), "\(shownMatte) pixels show the matte")
        }
    }

    @Test func aMatteNeedsTransparencyAndAFittingPlane() throws {
        let colors = [RGBA8(0, 0, 0, 0), RGBA8(250, 250, 250)]
        #expect(throws: GIFError.self) {
            _ = try GIFEncoder(width: 2, height: 2, colors: colors, transparentIndex: nil, loops: 0, lossy: 8, matte: RGBA8(255, 255, 255))
        }
        #expect(throws: GIFError.self) {
            _ = try GIFEncoder(width: 2, height: 2, colors: colors, transparentIndex: 0, loops: 0, lossy: 8, matte: RGBA8(255, 255, 255, 128))
        }
        let plain = try GIFEncoder(width: 2, height: 2, colors: colors, transparentIndex: 0, loops: 0, lossy: 8)
        #expect(throws: GIFError.self) { try plain.add([1, 1, 1, 1], delay: 4, matte: [1, 1, 1, 1]) }
        let matted = try GIFEncoder(width: 2, height: 2, colors: colors, transparentIndex: 0, loops: 0, lossy: 8, matte: RGBA8(255, 255, 255))
        #expect(throws: GIFError.self) { try matted.add([1, 1, 1, 1], delay: 4, matte: [1, 1, 1]) }
    }

    @Test func boundsOutsideTheRangeAreRefused() {
        for lossy in [-1, GIFEncoder.maximumLossy + 1] {
            #expect(throws: GIFError.self) {
                _ = try GIFEncoder(width: 4, height: 4, colors: fivePalette, transparentIndex: nil, loops: 0, lossy: lossy)
            }
        }
    }
}

/// The lossy coder's error table against the obvious computation, entry by entry.
@Suite struct LossyErrorTableTests {
    @Test(arguments: [nil, 0, 5] as [Int?])
    func everyEntryIsTheLargestChannelDifferenceAsShown(transparentIndex: Int?) {
        var generator = SeededGenerator(state: UInt64(transparentIndex ?? 99) + 1)
        let colors = (0..<37).map { _ in
            RGBA8(UInt8.random(in: 0...255, using: &generator), UInt8.random(in: 0...255, using: &generator),
                  UInt8.random(in: 0...255, using: &generator))
        }
        let order = Array(colors.indices).shuffled(using: &generator)
        let table = GIFEncoder.errorTable(colors, order: order, transparentIndex: transparentIndex)
        func shown(_ i: Int) -> [Int] {
            i == transparentIndex ? [0, 0, 0, 0] : [Int(colors[i].r), Int(colors[i].g), Int(colors[i].b), 255]
        }
        var wrong: [String] = []
        for slot in 0..<256 {
            for other in 0..<256 {
                let expected = slot < order.count && other < colors.count
                    ? (0..<4).map { abs(shown(order[slot])[$0] - shown(other)[$0]) }.max()! : 255
                if Int(table[other << 8 | slot]) != expected { wrong.append("slot \(slot), index \(other)") }
            }
        }
        #expect(table.count == 256 * 256 && wrong.isEmpty, "\(wrong.count) entries wrong, first \(wrong.prefix(3))")
    }
}

/// What each pixel accepts in a lossy frame, found over raw buffers a row at a time, against the
/// plain pixel-by-pixel form: after a loop has left its canvas (transparent, matte-marked and
/// coloured pixels), over the whole frame and rectangles on every edge and inside, with and
/// without a matte plane.
@Suite struct LossyAcceptanceTests {
    @Test(arguments: [8, 40])
    func theFastAcceptanceIsThePlainOne(bound: Int) throws {
        let width = 37, height = 23
        var colors = [RGBA8(0, 0, 0, 0)]
        for i in 0..<40 { colors.append(RGBA8(UInt8(255 - i * 6), UInt8(200 - i * 3), 255)) }
        var random = SeededGenerator(state: UInt64(bound))
        func frame() -> (indices: [UInt8], plane: [UInt8]) {
            var f = [UInt8](repeating: 0, count: width * height), m = f
            for p in f.indices {
                let x = p % width
                // Flat runs, transparent stretches and noise, so every neighbour test matters.
                f[p] = x < 5 ? 0 : x < 15 ? 7 : UInt8(Int.random(in: 0...40, using: &random) / (x % 3 + 1))
                m[p] = UInt8(Int.random(in: 0...1, using: &random))
            }
            return (f, m)
        }
        let encoder = try GIFEncoder(width: width, height: height, colors: colors, transparentIndex: 0, loops: 0,
                                     lossy: bound, matte: RGBA8(255, 255, 255))
        for _ in 0..<5 {
            let (f, m) = frame()
            try encoder.add(f, delay: 4, matte: m)
        }
        _ = try encoder.finish()
        // What a loop left on screen: transparent, flat and noisy pixels (the last frame may have
        // been cleared by disposal, so it is laid down here).
        encoder.canvas = frame().indices
        let (next, plane) = frame()
        let rects = [PixelRect(x: 0, y: 0, width: width, height: height), PixelRect(x: 0, y: 0, width: 1, height: 1),
                     PixelRect(x: width - 6, y: height - 4, width: 6, height: 4), PixelRect(x: 3, y: 2, width: 20, height: 11),
                     PixelRect(x: 0, y: 5, width: width, height: 1), PixelRect(x: 9, y: 0, width: 1, height: height)]
        var flat = 0, keyed = 0
        for rect in rects {
            for matte in [plane, nil] as [[UInt8]?] {
                let fast = encoder.acceptance(next, matte: matte, in: rect)
                let plain = encoder.referenceAcceptance(next, matte: matte, in: rect)
                let same = fast.exact == plain.exact && fast.target == plain.target && fast.tolerance == plain.tolerance
                    && fast.keyError == plain.keyError && fast.largest == plain.largest
                #expect(same, "rect \(rect), matte \(matte != nil)")
                flat += plain.tolerance.filter { $0 == 0 }.count
                keyed += plain.keyError.filter { $0 <= UInt8(bound) }.count
            }
        }
        #expect(flat > 50 && keyed > 50, "\(flat) flat pixels, \(keyed) the key could show")
        let shown = encoder.canvas.filter { $0 != 0 }.count
        #expect(shown > 100 && shown < width * height - 100, "\(shown) pixels of the canvas not transparent")
    }
}
