import Testing
@testable import WaveGIF
import WaveTestSupport

/// Frames held back to order the color table are coded on the cores (`writeOnTheCores`): the
/// merges, the rectangles, the canvas each is coded over (cleared by disposal where the next frame
/// needs it) settled in order, the renditions coded at once. The file must be the one giflib's
/// coder writes frame by frame (`codesItself: false`, no frames coded on the cores), whether every
/// frame is held, some are, or none.
@Suite struct HeldFramesTests {
    /// Blobs that move over a transparent canvas, vanish (so frames need clearing), repeat
    /// (so frames merge) and change colors.
    static func frames(count: Int, width: Int, height: Int, transparent: UInt8?, seed: UInt64, repeats: Bool = true) -> [[UInt8]] {
        var rng = SeededGenerator(state: seed)
        var out: [[UInt8]] = []
        for k in 0..<count {
            if k > 0 && rng.next() % 5 == 0 && repeats { out.append(out[k - 1]); continue }
            var f = [UInt8](repeating: transparent ?? 0, count: width * height)
            for _ in 0..<(1 + Int(rng.next() % 4)) {
                let w = 1 + Int(rng.next() % UInt64(width)), h = 1 + Int(rng.next() % UInt64(height))
                let x = Int(rng.next() % UInt64(width - w + 1)), y = Int(rng.next() % UInt64(height - h + 1))
                let color = UInt8(1 + rng.next() % 30)
                for row in y..<(y + h) { for col in x..<(x + w) { f[row * width + col] = color } }
            }
            out.append(f)
        }
        return out
    }

    @Test(arguments: [nil, 0] as [Int?], [1 << 22, 3 * 40 * 24, 1])
    func heldFramesCodeAsGiflibDoes(transparent: Int?, sampleBytes: Int) throws {
        let width = 40, height = 24
        let colors = distinctColors(32)
        for seed in UInt64(1)...6 {
            let frames = HeldFramesTests.frames(count: 30, width: width, height: height,
                                                transparent: transparent.map(UInt8.init), seed: seed)
            func encode(_ frames: [[UInt8]], itself: Bool) throws -> ([UInt8], GIFEncoder.Stats) {
                let encoder = try GIFEncoder(width: width, height: height, colors: colors, transparentIndex: transparent,
                                             loops: 0, colorOrder: .byUse(sampleBytes: sampleBytes), codesItself: itself)
                for (k, f) in frames.enumerated() { try encoder.add(f, delay: 2 + k % 3) }
                return (try encoder.finish(), encoder.stats)
            }
            let (a, statsA) = try encode(frames, itself: true), (b, statsB) = try encode(frames, itself: false)
            let identical = a == b
            #expect(identical, "seed \(seed): \(a.count) against \(b.count) bytes")
            #expect(statsA == statsB)
            #expect(statsA.framesMerged > 0)
            // Without repeats no frame merges, and the rectangles the table's order counted are
            // the ones the frames are coded in.
            let distinct = HeldFramesTests.frames(count: 30, width: width, height: height,
                                                  transparent: transparent.map(UInt8.init), seed: seed, repeats: false)
            let (c, statsC) = try encode(distinct, itself: true), (d, statsD) = try encode(distinct, itself: false)
            let sameFile = c == d
            #expect(sameFile, "seed \(seed), no repeats: \(c.count) against \(d.count) bytes")
            #expect(statsC == statsD && statsC.framesMerged == 0)
            if transparent != nil { #expect(statsA.framesCleared > 0, "seed \(seed): no frame needed clearing") }
            // What a viewer shows: every distinct frame, transparent pixels clear.
            let shown = try GIFDecoder.decode(a).frames
            let expected = mergedRuns(frames, frames.indices.map { 2 + $0 % 3 }).frames.map { f in
                f.flatMap { i -> [UInt8] in
                    if let t = transparent, Int(i) == t { return [0, 0, 0, 0] }
                    let c = colors[Int(i)]
                    return [c.r, c.g, c.b, c.a]
                }
            }
            let same = shown == expected
            #expect(same, "seed \(seed): the decoded frames differ from the frames added")
        }
    }
}

/// The rectangles of what changed and what must be cleared, found eight pixels a step
/// (`PixelRect.differing`, `PixelRect.uncovered`), against the plain pixel-by-pixel search.
@Suite struct ChangedRectTests {
    @Test func wordScansFindThePlainRectangles() {
        var rng = SeededGenerator(state: 11)
        for width in [1, 3, 7, 8, 9, 15, 16, 17, 31, 64, 75] {
            for height in [1, 2, 5] {
                for density in [0, 1, 2, 40] {
                    let n = width * height
                    let key = UInt8(rng.next() % 4)
                    // Few values, so equal pixels and the key are common; a few changes at random places.
                    let a = (0..<n).map { _ in UInt8(rng.next() % 4) }
                    var b = a
                    for _ in 0..<(density * n / 100 + (density > 0 ? 1 : 0)) { b[Int(rng.next() % UInt64(n))] = UInt8(rng.next() % 4) }
                    let whole = PixelRect(x: 0, y: 0, width: width, height: height)
                    a.withUnsafeBufferPointer { pa in
                        b.withUnsafeBufferPointer { pb in
                            #expect(PixelRect.differing(pa, pb, width: width)
                                    == PixelRect.bounding(in: whole, width: width) { pa[$0] != pb[$0] }, "\(width)×\(height)")
                            #expect(PixelRect.uncovered(pa, pb, key: key, width: width)
                                    == PixelRect.bounding(in: whole, width: width) { pa[$0] != key && pb[$0] == key }, "\(width)×\(height)")
                        }
                    }
                }
            }
        }
    }
}

/// A coded image's control block, descriptor, code size and blocks are written without giflib's
/// per-image calls (`GIFStream.putFrame(blocks:…)`); the file must be the one giflib's calls write
/// (`plainPutFrame`): every disposal, with and without a transparent entry, delays and rectangles
/// past a byte, code sizes below, at and above the table's depth, frames after frames.
@Suite struct CodedImageWritingTests {
    @Test func imagesWrittenDirectlyAreGiflibs() throws {
        var rng = SeededGenerator(state: 5)
        for entries in [2, 5, 16, 200, 256] {
            let width = 300, height = 260
            let colors = distinctColors(entries)
            let direct = try GIFStream(width: width, height: height, colors: colors)
            let plain = try GIFStream(width: width, height: height, colors: colors)
            try direct.putLoopBlock(repeats: 0)
            try plain.putLoopBlock(repeats: 0)
            for k in 0..<24 {
                let w = 1 + Int(rng.next() % UInt64(width)), h = 1 + Int(rng.next() % UInt64(height))
                let rect = PixelRect(x: Int(rng.next() % UInt64(width - w + 1)), y: Int(rng.next() % UInt64(height - h + 1)), width: w, height: h)
                let codeSize = 2 + Int(rng.next() % 7)
                let delay = [0, 2, 7, 255, 256, 1000, 65535][k % 7]
                let disposal = Int32(k % 4)
                let transparent: Int? = k % 3 == 0 ? nil : Int(rng.next() % UInt64(entries))
                // Blocks as a coder leaves them: full ones, then a short last one.
                var blocks: [UInt8] = []
                var left = Int(rng.next() % 700)
                while left > 0 {
                    let n = min(255, left)
                    blocks.append(UInt8(n))
                    for _ in 0..<n { blocks.append(UInt8(truncatingIfNeeded: rng.next())) }
                    left -= n
                }
                try direct.putFrame(blocks: blocks, rect: rect, codeSize: codeSize, delay: delay, disposal: disposal, transparentIndex: transparent)
                try plain.plainPutFrame(blocks: blocks, rect: rect, codeSize: codeSize, delay: delay, disposal: disposal, transparentIndex: transparent)
            }
            let a = try direct.close(), b = try plain.close()
            let same = a == b
            #expect(same, "\(entries) entries: \(a.count) against \(b.count) bytes")
        }
    }
}
