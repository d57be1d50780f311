import Testing
@testable import WaveGIF
import WavePlatform
import WaveTestSupport

/// The lossy path codes the bounded renditions first and bounds the exact ones by the shortest
/// (`GIFEncoder.lossyRendition`); the reference codes the exact rendition first and bounds the
/// bounded ones by it (`lossyRenditionExactFirst`). Both must write the same file and count the same.
@Suite struct LossyOrderTests {
    /// `largestBits(within:)` is the most bits whose sub-blocks fit, over every size up to several blocks.
    @Test func largestBitsIsTheMostThatFit() {
        for bytes in 0...3000 {
            let bits = GIFEncoder.ExactRendition.largestBits(within: bytes)
            #expect(GIFEncoder.ExactRendition.dataBytes(bits: bits) <= bytes, "\(bytes) bytes: \(bits) bits")
            #expect(GIFEncoder.ExactRendition.dataBytes(bits: bits + 1) > bytes, "\(bytes) bytes: \(bits) bits")
        }
    }

    /// Frames of runs and noise, with a moving band, so frames differ a little, a lot, or not at all.
    private static func frames(width: Int, height: Int, colors: Int, count: Int, seed: UInt64) -> [[UInt8]] {
        var random = SeededGenerator(state: seed)
        var base = [UInt8](repeating: 0, count: width * height)
        var i = 0
        while i < base.count {
            let run = 1 + Int(random.next() % 24)
            let v = UInt8(random.next() % UInt64(colors))
            for k in i..<min(base.count, i + run) { base[k] = random.next() % 5 == 0 ? UInt8(random.next() % UInt64(colors)) : v }
            i += run
        }
        var frames: [[UInt8]] = []
        for f in 0..<count {
            var frame = base
            let band = (f * 7) % max(1, height)
            for y in band..<min(height, band + 3 + f % 4) {
                for x in 0..<width where (x + f) % 9 < 6 { frame[y * width + x] = UInt8((x / 5 + f) % colors) }
            }
            if f % 5 == 3 { frame = frames[f - 1] }
            frames.append(frame)
        }
        return frames
    }

    private static func encode(_ frames: [[UInt8]], width: Int, height: Int, colors: [RGBA8], transparent: Int?,
                               lossy: Int, matte: RGBA8?, order: GIFEncoder.ColorOrder, codesItself: Bool,
                               exactFirst: Bool, onTheCores: Bool = true) throws -> ([UInt8], GIFEncoder.Stats) {
        try encoder(frames, width: width, height: height, colors: colors, transparent: transparent, lossy: lossy,
                    matte: matte, order: order, codesItself: codesItself, exactFirst: exactFirst, onTheCores: onTheCores).file
    }

    private static func encoder(_ frames: [[UInt8]], width: Int, height: Int, colors: [RGBA8], transparent: Int?,
                                lossy: Int, matte: RGBA8?, order: GIFEncoder.ColorOrder, codesItself: Bool,
                                exactFirst: Bool, onTheCores: Bool) throws -> (file: ([UInt8], GIFEncoder.Stats), encoder: GIFEncoder) {
        let e = try GIFEncoder(width: width, height: height, colors: colors, transparentIndex: transparent, loops: 0,
                               colorOrder: order, lossy: lossy, matte: matte, codesItself: codesItself)
        e.codesExactFirst = exactFirst
        e.onTheCores = onTheCores
        for (k, f) in frames.enumerated() {
            let marks = matte == nil ? nil : f.enumerated().map { UInt8(Int($1) != transparent && ($0 + k) % 3 == 0 ? 1 : 0) }
            try e.add(f, delay: 4, matte: marks)
        }
        return ((try e.finish(), e.stats), e)
    }

    /// Frames of `guessArea` pixels and more code the flexible pass of the pair that won the frame
    /// before beside their greedy passes: taken when that pair wins again, coded afresh when it
    /// does not. Both cases happen here, and the file is the one coded without the guess (on one
    /// core) and the reference order's, byte for byte.
    @Test(arguments: [8, 48])
    func guessedFlexiblePassesWriteTheSameFile(lossy: Int) throws {
        var taken = 0, missed = 0
        for variant in 0..<4 {
            let width = 96, height = 64, count = 40
            var colors = (0..<count).map { (i: Int) -> RGBA8 in
                let r = UInt8(100 + i % 32), g = UInt8(90 + i % 16), b = UInt8(40 + 3 * i)
                return RGBA8(r, g, b)
            }
            let transparent: Int? = variant >= 2 ? count / 2 : nil
            if let t = transparent { colors[t] = RGBA8(0, 0, 0, 0) }
            let matte: RGBA8? = variant == 3 ? RGBA8(250, 250, 245) : nil
            let frames = Self.frames(width: width, height: height, colors: count, count: 16, seed: UInt64(500 + variant))
            #expect(width * height >= GIFEncoder.guessArea)
            let (guessing, encoder) = try Self.encoder(frames, width: width, height: height, colors: colors, transparent: transparent,
                                                      lossy: lossy, matte: matte, order: .byUse, codesItself: true,
                                                      exactFirst: false, onTheCores: true)
            let alone = try Self.encode(frames, width: width, height: height, colors: colors, transparent: transparent,
                                        lossy: lossy, matte: matte, order: .byUse, codesItself: true, exactFirst: false, onTheCores: false)
            let reference = try Self.encode(frames, width: width, height: height, colors: colors, transparent: transparent,
                                            lossy: lossy, matte: matte, order: .byUse, codesItself: true, exactFirst: true)
            #expect(guessing.0 == alone.0 && guessing.1 == alone.1, "variant \(variant), lossy \(lossy): guessing vs one core")
            #expect(guessing.0 == reference.0 && guessing.1 == reference.1, "variant \(variant), lossy \(lossy): vs the reference order")
            taken += encoder.guesses.taken
            missed += encoder.guesses.missed
        }
        if ProcessEnvironment.activeProcessorCount > 1 {
            #expect(taken > 0 && missed > 0, "guesses taken \(taken), missed \(missed)")
        }
    }

    @Test(arguments: [1, 8, 32, 128])
    func bothOrdersWriteTheSameFile(lossy: Int) throws {
        var random = SeededGenerator(state: UInt64(77 + lossy))
        for (n, (width, height, count)) in [(1, 1, 2), (9, 7, 3), (40, 30, 17), (83, 47, 40), (130, 90, 200), (300, 120, 64)].enumerated() {
            // (The large frames, past a full string table, with distinct colors only: close shades
            // there make the bounded coder slow in a debug build.)
            for variant in 0..<4 where width < 300 || variant % 2 == 0 {
                var colors = (0..<count).map { _ in
                    RGBA8(UInt8(truncatingIfNeeded: random.next()), UInt8(truncatingIfNeeded: random.next()),
                          UInt8(truncatingIfNeeded: random.next()))
                }
                // Close shades, so the bound lets the coder choose.
                if variant % 2 == 1 { colors = colors.indices.map { i in RGBA8(UInt8(100 + i % 32), UInt8(90 + i % 16), 40) } }
                let transparent: Int? = variant >= 2 ? count / 2 : nil
                if let t = transparent { colors[t] = RGBA8(0, 0, 0, 0) }
                let matte: RGBA8? = variant == 3 ? RGBA8(250, 250, 245) : nil
                let order: GIFEncoder.ColorOrder = [.byUse, .asGiven][(n + variant) % 2]
                let frames = Self.frames(width: width, height: height, colors: count, count: 12, seed: UInt64(n * 10 + variant))
                for itself in [true, false] {
                    let (fast, fastStats) = try Self.encode(frames, width: width, height: height, colors: colors, transparent: transparent,
                                                            lossy: lossy, matte: matte, order: order, codesItself: itself, exactFirst: false)
                    let (slow, slowStats) = try Self.encode(frames, width: width, height: height, colors: colors, transparent: transparent,
                                                            lossy: lossy, matte: matte, order: order, codesItself: itself, exactFirst: true)
                    let what = "\(width)×\(height), \(count) colors, variant \(variant), coding itself \(itself), lossy \(lossy)"
                    #expect(fast == slow, "\(what): \(fast.count) vs \(slow.count) bytes")
                    #expect(fastStats == slowStats, "\(what)")
                }
            }
        }
    }
}
