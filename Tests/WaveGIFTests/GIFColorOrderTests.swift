import Foundation
import Testing
@testable import WaveGIF
import WaveTestSupport

/// One image of a GIF file as stored: its rectangle, LZW minimum code size and data bytes.
struct StoredImage: Equatable {
    var x, y, width, height: Int
    var codeSize: Int
    var dataBytes: Int
}

/// Walks a GIF's blocks (a parser of its own, independent of giflib) and lists its images.
func storedImages(_ bytes: [UInt8]) throws -> [StoredImage] {
    try #require(bytes.count > 13 && Array(bytes[0..<6]) == Array("GIF89a".utf8))
    var p = 13
    if bytes[10] & 0x80 != 0 { p += 3 << (Int(bytes[10] & 7) + 1) }
    func word(_ i: Int) -> Int { Int(bytes[i]) | Int(bytes[i + 1]) << 8 }
    func skipSubBlocks() throws -> Int {
        var total = 0
        while true {
            try #require(p < bytes.count, "truncated sub-blocks")
            let n = Int(bytes[p])
            p += 1 + n
            if n == 0 { return total }
            total += n
        }
    }
    var images: [StoredImage] = []
    while p < bytes.count {
        switch bytes[p] {
        case 0x3B:
            return images
        case 0x21:
            p += 2
            _ = try skipSubBlocks()
        case 0x2C:
            try #require(p + 11 < bytes.count)
            var image = StoredImage(x: word(p + 1), y: word(p + 3), width: word(p + 5), height: word(p + 7), codeSize: 0, dataBytes: 0)
            let flags = bytes[p + 9]
            p += 10
            if flags & 0x80 != 0 { p += 3 << (Int(flags & 7) + 1) }
            image.codeSize = Int(bytes[p])
            p += 1
            image.dataBytes = try skipSubBlocks()
            images.append(image)
        default:
            Issue.record("unexpected block 0x\(String(bytes[p], radix: 16)) at \(p)")
            return images
        }
    }
    Issue.record("no trailer")
    return images
}

/// A palette of `n` distinct opaque colors.
func distinctColors(_ n: Int) -> [RGBA8] {
    (0..<n).map { (i: Int) -> RGBA8 in
        let g = UInt8((37 * i) & 0xFF)
        return RGBA8(UInt8(i), g, UInt8(255 - i))
    }
}

@Suite struct GIFCodeSizeTests {
    /// Each image's LZW code size is the fewest bits holding its largest index (at least 2), not the
    /// table's depth.
    @Test func eachImageCodesWithTheBitsItsLargestIndexNeeds() throws {
        let width = 32, height = 16
        let colors = distinctColors(256)
        var first = [UInt8](repeating: 0, count: width * height)
        for i in first.indices { first[i] = UInt8(i & 0xFF) }
        // Frame 1 repaints a block with indices 0…3 only; frame 2 with 0…20; frame 3 with 100.
        func patched(_ base: [UInt8], _ values: (Int) -> UInt8) -> [UInt8] {
            var f = base
            for y in 4..<10 { for x in 8..<20 { f[y * width + x] = values(y * width + x) } }
            return f
        }
        let second = patched(first) { UInt8($0 % 4) }
        let third = patched(second) { UInt8($0 % 21) }
        let fourth = patched(third) { _ in 100 }
        let frames = [first, second, third, fourth]
        let (bytes, _) = try encodeGIF(width: width, height: height, colors: colors, colorOrder: .asGiven, frames: frames, delays: [2, 2, 2, 2])
        let images = try storedImages(bytes)
        try #require(images.count == 4)
        // Keyed frames also use their key, the lowest index the frame leaves free.
        #expect(images[0].codeSize == 8)
        #expect(images[1].codeSize == 2 || images[1].codeSize == 3, "\(images[1])")
        #expect(images[2].codeSize == 5, "\(images[2])")
        #expect(images[3].codeSize == 7, "\(images[3])")
        let decoded = try GIFDecoder.decode(bytes)
        #expect(decoded.frames == frames.map { expand($0, colors, transparent: nil) })
    }

    /// The LZW model the encoder chooses renditions with counts exactly the bits giflib writes, at
    /// every code size.
    @Test(arguments: [2, 3, 4, 5, 6, 7, 8])
    func sizerMatchesGiflibsOutput(bits: Int) throws {
        let count = 1 << bits
        let colors = distinctColors(count)
        var sizer = LZWSizer()
        for (width, height, seed) in [(7, 3, 1), (64, 64, 2), (300, 41, 3)] {
            // Runs, repeats and noise, so the table grows, fills and resets.
            var state = UInt32(seed * 7919)
            let pixels: [UInt8] = (0..<width * height).map { i in
                state = state &* 1_103_515_245 &+ 12345
                let noise = Int(state >> 16) % count
                return UInt8(i % 97 < 40 ? (i / 13) % count : noise)
            }
            let (bytes, _) = try encodeGIF(width: width, height: height, colors: colors, colorOrder: .asGiven, frames: [pixels], delays: [2])
            let images = try storedImages(bytes)
            try #require(images.count == 1)
            let codeSize = GIFStream.minimumCodeSize(maxIndex: Int(pixels.max() ?? 0))
            #expect(images[0].codeSize == codeSize)
            let modelled = pixels.withUnsafeBufferPointer { sizer.bits($0, minimumCodeSize: codeSize) }
            #expect((modelled + 7) / 8 == images[0].dataBytes, "\(width)×\(height): model \(modelled) bits, file \(images[0].dataBytes) bytes")
        }
    }
}

@Suite struct GIFColorOrderTests {
    /// A 64-color scene whose later frames only touch a few high entries: ordering the table by use
    /// puts those first, so the patches code in fewer bits, and the pixels stay the same.
    @Test func orderingByUseShrinksPatchesAndKeepsPixels() throws {
        let width = 48, height = 24
        var colors = distinctColors(64)
        colors[9] = RGBA8(0, 0, 0, 0)
        var frames: [[UInt8]] = []
        for k in 0..<12 {
            var f = [UInt8](repeating: 9, count: width * height)
            // Rows 2…16 are opaque entry 5 (so nothing turns transparent again), rows 17 on a
            // static pattern of many entries.
            for i in f.indices where (i / width) >= 2 { f[i] = (i / width) > 16 ? UInt8(10 + i % 54) : 5 }
            // A small wave of entries 50…57 that moves each frame.
            for x in 0..<width {
                let top = 6 + Int(4 * sin(Double(x + 3 * k) / 4))
                for y in top..<top + 3 { f[y * width + x] = UInt8(50 + (x + y + k) % 8) }
            }
            frames.append(f)
        }
        let delays = Array(repeating: 3, count: frames.count)
        var usage = GIFColorUsage(entries: 64, alwaysUsed: 9)
        for k in 1..<frames.count { usage.add(previous: frames[k - 1], frame: frames[k], width: width, height: height) }
        let order = usage.order
        #expect(order.sorted() == Array(0..<64))
        // The transparent entry, the wave's eight colors and what they uncover fit the first 16 entries.
        #expect(Set(order.prefix(16)).isSuperset(of: [5, 9, 50, 51, 52, 53, 54, 55, 56, 57]), "\(order)")

        let plain = try encodeGIF(width: width, height: height, colors: colors, transparentIndex: 9, colorOrder: .asGiven, frames: frames, delays: delays)
        let encoder = try GIFEncoder(width: width, height: height, colors: colors, transparentIndex: 9, loops: 0, colorOrder: .explicit(order))
        for (f, d) in zip(frames, delays) { try encoder.add(f, delay: d) }
        let ordered = try encoder.finish()
        #expect(ordered.count < plain.bytes.count, "ordered \(ordered.count) bytes, plain \(plain.bytes.count)")
        let images = try storedImages(ordered)
        #expect(images.dropFirst().allSatisfy { $0.codeSize <= 4 }, "\(images)")

        let a = try GIFDecoder.decode(plain.bytes), b = try GIFDecoder.decode(try playedTwice(ordered))
        #expect(b.frames.count == 2 * a.frames.count)
        #expect(Array(b.frames.prefix(a.frames.count)) == a.frames)
        #expect(Array(b.frames.suffix(a.frames.count)) == a.frames)
        #expect(a.frames[3] == expand(frames[3], colors, transparent: 9))
    }

    /// By default the encoder holds back the first frames, counts their colors and writes the same
    /// file as an explicit order from those counts: every frame when they fit in the sample, else
    /// the first ones (at least 9).
    @Test func defaultOrderCountsTheFirstFrames() throws {
        let colors = distinctColors(64)
        let width = 24, height = 16
        let frames: [[UInt8]] = (0..<20).map { k in
            (0..<width * height).map { i in
                let x = i % width, y = i / width
                return y < 8 + (x + k) % 5 ? 3 : UInt8(40 + (x * 7 + y + k) % 20)
            }
        }
        let delays = Array(repeating: 2, count: frames.count)
        func order(_ counted: Int) -> [Int] {
            var usage = GIFColorUsage(entries: 64)
            for k in 1..<counted { usage.add(previous: frames[k - 1], frame: frames[k], width: width, height: height) }
            return usage.order
        }
        let whole = try encodeGIF(width: width, height: height, colors: colors, frames: frames, delays: delays)
        let explicitWhole = try encodeGIF(width: width, height: height, colors: colors, colorOrder: .explicit(order(20)), frames: frames, delays: delays)
        #expect(whole.bytes == explicitWhole.bytes)
        #expect(whole.stats.framesIn == 20)
        let sampled = try encodeGIF(width: width, height: height, colors: colors, colorOrder: .byUse(sampleBytes: 1), frames: frames, delays: delays)
        let explicitSample = try encodeGIF(width: width, height: height, colors: colors, colorOrder: .explicit(order(9)), frames: frames, delays: delays)
        #expect(sampled.bytes == explicitSample.bytes)
        #expect(try GIFDecoder.decode(sampled.bytes).frames == frames.map { expand($0, colors, transparent: nil) })
        // Fewer frames than the sample: the order comes from all of them at finish.
        let short = try encodeGIF(width: width, height: height, colors: colors, colorOrder: .byUse(sampleBytes: 1), frames: Array(frames.prefix(4)), delays: [2, 2, 2, 2])
        let explicitShort = try encodeGIF(width: width, height: height, colors: colors, colorOrder: .explicit(order(4)), frames: Array(frames.prefix(4)), delays: [2, 2, 2, 2])
        #expect(short.bytes == explicitShort.bytes)
    }

    @Test func usageCountsFramesAndPixelsInsideTheChangedRectangle() {
        let width = 4, height = 2
        var usage = GIFColorUsage(entries: 8)
        // Only the right half changes: entries 5 and 6 are counted, 0 (left half) is not.
        usage.add(previous: [0, 0, 1, 1, 0, 0, 1, 1], frame: [0, 0, 5, 6, 0, 0, 5, 5], width: width, height: height)
        usage.add(previous: [0, 0, 5, 6, 0, 0, 5, 5], frame: [0, 0, 5, 6, 0, 0, 5, 5], width: width, height: height)
        #expect(usage.samples == 2)
        #expect(usage.frames == [0, 0, 0, 0, 0, 1, 1, 0])
        #expect(usage.pixels == [0, 0, 0, 0, 0, 3, 1, 0])
        #expect(Array(usage.order.prefix(2)) == [5, 6])
        #expect(usage.order.sorted() == Array(0..<8))
    }

    @Test func badOrdersAreRefused() {
        let colors = distinctColors(5)
        for order in [[0, 1, 2, 3], [0, 1, 2, 3, 3], [0, 1, 2, 3, 5], [4, 3, 2, 1, 0, 5]] {
            #expect(throws: GIFError.self) {
                _ = try GIFEncoder(width: 4, height: 4, colors: colors, transparentIndex: nil, loops: 0, colorOrder: .explicit(order))
            }
        }
        #expect(throws: GIFError.self) { _ = try GIFEncoder(width: 4, height: 4, colors: colors, transparentIndex: 5, loops: 0) }
    }

    /// With an order, the table lists the palette permuted, the transparent entry moves with it, and
    /// decoding gives the same picture as without.
    @Test func permutedTableDecodesTheSame() throws {
        let colors: [RGBA8] = [RGBA8(200, 30, 40), RGBA8(10, 220, 90), RGBA8(0, 0, 0, 0), RGBA8(250, 250, 10)]
        let frames = movingShapeOverTransparency(width: 30, height: 20, transparent: 2, count: 12)
        let delays = Array(repeating: 2, count: frames.count)
        for order in [[2, 3, 0, 1], [3, 2, 1, 0], [0, 1, 2, 3]] {
            let encoder = try GIFEncoder(width: 30, height: 20, colors: colors, transparentIndex: 2, loops: 0, colorOrder: .explicit(order))
            for (f, d) in zip(frames, delays) { try encoder.add(f, delay: d) }
            let twice = try GIFDecoder.decode(try playedTwice(try encoder.finish()))
            #expect(twice.frames.count == 2 * frames.count)
            for k in 0..<min(twice.frames.count, 2 * frames.count) {
                let truth = expand(frames[k % frames.count], colors, transparent: 2)
                #expect(twice.frames[k] == truth, "order \(order) frame \(k): \(firstDifference(twice.frames[k], truth, width: 30) ?? "")")
            }
        }
    }

    /// A pair's counts (taken in four tallies) are a plain count of each entry inside the rectangle
    /// where the frames differ: over runs and noise, rectangles of every width modulo 4, and frames
    /// that do not differ at all.
    @Test func pairCountsArePlainCounts() {
        var random = SeededGenerator(state: 4242)
        for trial in 0..<60 {
            let width = 1 + trial % 23, height = 1 + (trial * 7) % 11
            var a = [UInt8](repeating: 0, count: width * height)
            var i = 0
            while i < a.count {
                let run = 1 + Int(random.next() % 9), v = UInt8(random.next() % 200)
                for k in i..<min(a.count, i + run) { a[k] = v }
                i += run
            }
            var b = a
            // A block of new values (none when trial % 5 == 0).
            let x0 = Int(random.next() % UInt64(width)), y0 = Int(random.next() % UInt64(height))
            let x1 = x0 + Int(random.next() % UInt64(width - x0)), y1 = y0 + Int(random.next() % UInt64(height - y0))
            if trial % 5 != 0 {
                for y in y0...y1 { for x in x0...x1 { b[y * width + x] = UInt8(random.next() % 256) } }
            }
            let pair = GIFColorUsage.count(previous: a, frame: b, width: width, height: height)
            var rect = PixelRect(x: 0, y: 0, width: 0, height: 0)
            var plain = [Int](repeating: 0, count: 256)
            let differing = (0..<a.count).filter { a[$0] != b[$0] }
            if let first = differing.first {
                let xs = differing.map { $0 % width }, ys = differing.map { $0 / width }
                rect = PixelRect(x: xs.min()!, y: ys.min()!, width: xs.max()! - xs.min()! + 1, height: ys.max()! - ys.min()! + 1)
                for y in rect.y..<rect.maxY { for x in rect.x..<rect.maxX { plain[Int(b[y * width + x])] += 1 } }
                _ = first
            }
            #expect(pair.rect.isEmpty == rect.isEmpty, "trial \(trial)")
            if !rect.isEmpty { #expect(pair.rect == rect, "trial \(trial)") }
            #expect(pair.counts == plain, "trial \(trial): \(width)×\(height), rect \(rect)")
        }
    }
}
