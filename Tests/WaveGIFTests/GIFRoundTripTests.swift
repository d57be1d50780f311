import Foundation
import Testing
import WaveGIF
import WaveTestSupport

/// Encodes `frames` with their delays in one go.
func encodeGIF(width: Int, height: Int, colors: [RGBA8], transparentIndex: Int? = nil, loops: Int = 0,
               colorOrder: GIFEncoder.ColorOrder = .byUse,
               frames: [[UInt8]], delays: [Int]) throws -> (bytes: [UInt8], stats: GIFEncoder.Stats) {
    let encoder = try GIFEncoder(width: width, height: height, colors: colors, transparentIndex: transparentIndex, loops: loops,
                                 colorOrder: colorOrder)
    for (frame, delay) in zip(frames, delays) { try encoder.add(frame, delay: delay) }
    let bytes = try encoder.finish()
    return (bytes, encoder.stats)
}

/// Consecutive identical frames collapsed into one, their delays summed (what the encoder writes).
func mergedRuns(_ frames: [[UInt8]], _ delays: [Int]) -> (frames: [[UInt8]], delays: [Int]) {
    var outFrames: [[UInt8]] = []
    var outDelays: [Int] = []
    for (frame, delay) in zip(frames, delays) {
        if let last = outFrames.last, last == frame {
            outDelays[outDelays.count - 1] += delay
        } else {
            outFrames.append(frame)
            outDelays.append(delay)
        }
    }
    return (outFrames, outDelays)
}

/// Where the image data starts (the first extension or image after the header, the global color
/// table and the NETSCAPE loop block), so a test can replay the frames a second time.
func framesOffset(_ bytes: [UInt8]) throws -> Int {
    try #require(bytes.count > 13)
    var p = 13
    if bytes[10] & 0x80 != 0 { p += 3 << (Int(bytes[10] & 7) + 1) }
    // Skip application extensions (the loop block); stop at the first graphics control or image.
    while p + 1 < bytes.count, bytes[p] == 0x21, bytes[p + 1] == 0xFF {
        p += 2
        while p < bytes.count, bytes[p] != 0 { p += Int(bytes[p]) + 1 }
        p += 1
    }
    try #require(p < bytes.count && (bytes[p] == 0x21 || bytes[p] == 0x2C), "no frame found after the header")
    return p
}

/// The file with its frames written twice in a row: decoding it plays the loop's wrap from the
/// last frame back to the first, with the last frame's disposal applied as a player does.
func playedTwice(_ bytes: [UInt8]) throws -> [UInt8] {
    try #require(bytes.last == 0x3B, "no GIF trailer")
    let start = try framesOffset(bytes)
    let body = bytes[start..<(bytes.count - 1)]
    return Array(bytes[..<start]) + Array(body) + Array(body) + [0x3B]
}

/// (colors, transparent index, table size): the table is the smallest power of two holding the
/// colors (the "unchanged" key is an entry a frame does not use, so it costs no entry).
let colorTableCases: [(Int, Int?, Int)] = {
    var cases: [(Int, Int?, Int)] = []
    cases.append((1, nil, 2))
    cases.append((1, 0, 2))
    cases.append((2, 1, 2))
    cases.append((2, nil, 2))
    cases.append((3, nil, 4))
    cases.append((4, 0, 4))
    cases.append((4, nil, 4))
    cases.append((5, 2, 8))
    cases.append((8, 7, 8))
    cases.append((8, nil, 8))
    cases.append((17, nil, 32))
    cases.append((200, nil, 256))
    cases.append((255, nil, 256))
    cases.append((256, nil, 256))
    cases.append((256, 3, 256))
    return cases
}()

let fivePalette: [RGBA8] = [
    RGBA8(0xE3, 0xF2, 0xFD), RGBA8(0x90, 0xCA, 0xF9), RGBA8(0x42, 0xA5, 0xF5), RGBA8(0x1E, 0x88, 0xE5), RGBA8(12, 34, 56),
]

/// A moving pattern of 5 colors on 24 × 16: a vertical band that travels right and wraps, a
/// horizontal stripe that changes color, and a few frames repeated to exercise merging.
func movingBand() -> (frames: [[UInt8]], delays: [Int]) {
    let width = 24, height = 16
    var frames: [[UInt8]] = []
    var delays: [Int] = []
    for k in 0..<16 {
        var f = [UInt8](repeating: 0, count: width * height)
        let x0 = (k * 3) % width
        for y in 0..<height {
            for dx in 0..<5 { f[y * width + (x0 + dx) % width] = 1 + UInt8((dx + y / 4) % 3) }
        }
        for x in 0..<width { f[(k % height) * width + x] = 4 }
        frames.append(f)
        delays.append(2 + k % 3)
        // Repeats: one after frame 3, two after frame 8, one after frame 15 (the last).
        for _ in 0..<(k == 3 ? 1 : k == 8 ? 2 : k == 15 ? 1 : 0) {
            frames.append(f)
            delays.append(5 + k % 2)
        }
    }
    return (frames, delays)
}

@Suite struct GIFRoundTripTests {
    @Test func opaqueFramesDecodeExactlyWithMergedDelays() throws {
        let (frames, delays) = movingBand()
        #expect(frames.count == 20)
        let (bytes, stats) = try encodeGIF(width: 24, height: 16, colors: fivePalette, frames: frames, delays: delays)
        let decoded = try GIFDecoder.decode(bytes)
        let expected = mergedRuns(frames, delays)
        #expect(expected.frames.count == 16)

        #expect(decoded.version == "GIF89a")
        #expect(decoded.width == 24 && decoded.height == 16)
        #expect(decoded.frames.count == expected.frames.count)
        #expect(decoded.delays == expected.delays)
        #expect(stats.framesIn == 20)
        #expect(stats.framesMerged == 4)
        #expect(stats.framesWritten == 16)
        // Five colors fit in a table of 8.
        #expect(decoded.globalColorCount == 8)
        for (k, frame) in decoded.frames.enumerated() where k < expected.frames.count {
            let truth = expand(expected.frames[k], fivePalette, transparent: nil)
            #expect(frame == truth, "frame \(k): \(firstDifference(frame, truth, width: 24) ?? "")")
        }
    }

    /// Frames that change little should be written as small patches, yet still decode to the whole frame.
    @Test func smallChangesAreCroppedButDecodeWhole() throws {
        let width = 40, height = 30
        var frames: [[UInt8]] = []
        for k in 0..<10 {
            var f = [UInt8](repeating: 0, count: width * height)
            for y in 0..<height { for x in 0..<width where (x / 5 + y / 5) % 2 == 0 { f[y * width + x] = 1 } }
            f[(k + 3) * width + 2 * k] = 2
            f[(k + 4) * width + 2 * k + 1] = 3
            frames.append(f)
        }
        let delays = Array(repeating: 4, count: frames.count)
        let colors = Array(fivePalette.prefix(4))
        let (bytes, _) = try encodeGIF(width: width, height: height, colors: colors, frames: frames, delays: delays)
        let (full, _) = try encodeGIF(width: width, height: height, colors: colors, frames: [frames[0]], delays: [4])
        // Nine tiny patches cost much less than nine whole frames.
        #expect(bytes.count < full.count * 3, "\(bytes.count) bytes for 10 frames, \(full.count) for one")
        let decoded = try GIFDecoder.decode(bytes)
        #expect(decoded.frames.count == 10)
        #expect(decoded.delays == delays)
        for k in 0..<min(10, decoded.frames.count) {
            let truth = expand(frames[k], colors, transparent: nil)
            let same = decoded.frames[k] == truth
            #expect(same, "frame \(k): \(firstDifference(decoded.frames[k], truth, width: width) ?? "")")
        }
    }

    @Test(arguments: colorTableCases)
    func colorTableIsTheSmallestThatFits(count: Int, transparent: Int?, tableSize: Int) throws {
        let colors = (0..<count).map { (i: Int) -> RGBA8 in
            let r = UInt8(i), g = UInt8(255 - i), b = UInt8((i * 7) & 0xFF)
            return RGBA8(r, g, b)
        }
        let frames: [[UInt8]] = (0..<3).map { k in (0..<64).map { UInt8(($0 + k) % count) } }
        let (bytes, _) = try encodeGIF(width: 8, height: 8, colors: colors, transparentIndex: transparent, frames: frames, delays: [3, 3, 3])
        let decoded = try GIFDecoder.decode(bytes)
        #expect(decoded.globalColorCount == tableSize)
        let unique = mergedRuns(frames, [3, 3, 3])
        #expect(decoded.frames.count == unique.frames.count)
        for k in 0..<min(unique.frames.count, decoded.frames.count) {
            let same = decoded.frames[k] == expand(unique.frames[k], colors, transparent: transparent)
            #expect(same, "frame \(k)")
        }
    }

    @Test func encodingIsDeterministic() throws {
        let (frames, delays) = movingBand()
        let a = try encodeGIF(width: 24, height: 16, colors: fivePalette, frames: frames, delays: delays)
        let b = try encodeGIF(width: 24, height: 16, colors: fivePalette, frames: frames, delays: delays)
        #expect(a.bytes == b.bytes)
        #expect(a.stats == b.stats)
    }
}

/// A shape moving over a transparent background: pixels go opaque and back to transparent.
func movingShapeOverTransparency(width: Int, height: Int, transparent t: UInt8, count: Int) -> [[UInt8]] {
    (0..<count).map { k in
        var f = [UInt8](repeating: t, count: width * height)
        // A 6 × 5 block moving right by 3 px a frame and down by 1, wrapping around.
        let bx = (k * 3) % (width - 6), by = k % (height - 5)
        for y in by..<by + 5 { for x in bx..<bx + 6 { f[y * width + x] = (x + y) % 2 == 0 ? 0 : 1 } }
        // A diagonal line that shrinks, leaving transparency behind.
        for i in 0..<max(0, height - 2 * k) { f[i * width + (i + k) % width] = 3 }
        // A pixel that blinks: opaque on even frames, transparent on odd ones.
        f[(height - 1) * width + width - 1] = k % 2 == 0 ? 3 : t
        return f
    }
}

@Suite struct GIFTransparencyTests {
    // Index 2 is transparent; the others are opaque.
    let colors: [RGBA8] = [RGBA8(200, 30, 40), RGBA8(10, 220, 90), RGBA8(0, 0, 0, 0), RGBA8(250, 250, 10)]

    @Test func pixelsBecomeTransparentAgainAndTheLoopWraps() throws {
        let width = 30, height = 20
        var frames = movingShapeOverTransparency(width: width, height: height, transparent: 2, count: 12)
        // A frame repeated (merged) and, at the end, the first frame's opaque pixels all gone.
        frames.insert(frames[4], at: 5)
        frames.append([UInt8](repeating: 2, count: width * height))
        // And back: the last frame covers pixels that the first frame shows transparent.
        var last = [UInt8](repeating: 0, count: width * height)
        for i in stride(from: 0, to: last.count, by: 7) { last[i] = 2 }
        frames.append(last)
        let delays = frames.indices.map { 3 + $0 % 4 }
        let (bytes, stats) = try encodeGIF(width: width, height: height, colors: colors, transparentIndex: 2, frames: frames, delays: delays)
        #expect(stats.framesCleared > 0, "no frame used disposal, so the test does not exercise it")

        let expected = mergedRuns(frames, delays)
        let decoded = try GIFDecoder.decode(bytes)
        #expect(decoded.globalColorCount == 4)
        #expect(decoded.frames.count == expected.frames.count)
        #expect(decoded.delays == expected.delays)
        for k in 0..<min(decoded.frames.count, expected.frames.count) {
            let truth = expand(expected.frames[k], colors, transparent: 2)
            let same = decoded.frames[k] == truth
            #expect(same, "frame \(k): \(firstDifference(decoded.frames[k], truth, width: width) ?? "")")
        }

        // Playing on past the last frame must show the first frame again, exactly.
        let twice = try GIFDecoder.decode(try playedTwice(bytes))
        let n = expected.frames.count
        #expect(twice.frames.count == 2 * n)
        for k in 0..<min(n, max(0, twice.frames.count - n)) {
            let truth = expand(expected.frames[k], colors, transparent: 2)
            let same = twice.frames[n + k] == truth
            #expect(same, "second play, frame \(k): \(firstDifference(twice.frames[n + k], truth, width: width) ?? "")")
        }
    }

    /// A region that stays put while something else moves far away, then vanishes: the frame
    /// before must clear it even though none of its pixels changed. (The moving dots stay on an
    /// opaque strip, so no other disposal happens to clear the region by chance.)
    @Test func staticRegionThatVanishesIsCleared() throws {
        let width = 20, height = 20
        func frame(_ k: Int, block: Bool) -> [UInt8] {
            var f = [UInt8](repeating: 2, count: width * height)
            for y in 14..<18 { for x in 0..<width { f[y * width + x] = 0 } }
            if block { for y in 0..<4 { for x in 0..<4 { f[y * width + x] = y == 0 ? 3 : 0 } } }
            f[15 * width + 14 + k % 4] = 1
            f[16 * width + 14 + (k + 2) % 4] = 3
            return f
        }
        // Frames 4 and 5 lose the block, it comes back at 6, and the first frame has none
        // while the last one has it, so the wrap must clear it too.
        let frames = (0..<9).map { frame($0, block: $0 != 0 && $0 != 4 && $0 != 5) }
        let delays = Array(repeating: 2, count: frames.count)
        let (bytes, stats) = try encodeGIF(width: width, height: height, colors: colors, transparentIndex: 2, frames: frames, delays: delays)
        #expect(stats.framesCleared == 2)
        let twice = try GIFDecoder.decode(try playedTwice(bytes))
        #expect(twice.frames.count == 2 * frames.count)
        for k in 0..<min(twice.frames.count, 2 * frames.count) {
            let truth = expand(frames[k % frames.count], colors, transparent: 2)
            let same = twice.frames[k] == truth
            #expect(same, "frame \(k): \(firstDifference(twice.frames[k], truth, width: width) ?? "")")
        }
    }

    @Test(arguments: [0, 3, 7])
    func transparentIndexAnywhereInThePalette(transparent: Int) throws {
        var colors = (0..<8).map { RGBA8(UInt8(20 * $0), UInt8(255 - 30 * $0), 77) }
        colors[transparent] = RGBA8(0, 0, 0, 0)
        let t = UInt8(transparent)
        let other = UInt8((transparent + 1) % 8), third = UInt8((transparent + 2) % 8), fourth = UInt8((transparent + 5) % 8)
        let width = 16, height = 12
        let frames: [[UInt8]] = (0..<9).map { k in
            (0..<width * height).map { i in
                let x = i % width, y = i / width
                if abs(x - k) <= 2 && abs(y - 6) <= 3 { return other }
                if (x + y + k) % 5 == 0 { return third }
                return y == 0 && k % 3 == 0 ? fourth : t
            }
        }
        let delays = Array(repeating: 2, count: frames.count)
        let (bytes, _) = try encodeGIF(width: width, height: height, colors: colors, transparentIndex: transparent, frames: frames, delays: delays)
        let twice = try GIFDecoder.decode(try playedTwice(bytes))
        #expect(twice.frames.count == 2 * frames.count)
        for k in 0..<min(twice.frames.count, 2 * frames.count) {
            let truth = expand(frames[k % frames.count], colors, transparent: transparent)
            let same = twice.frames[k] == truth
            #expect(same, "frame \(k): \(firstDifference(twice.frames[k], truth, width: width) ?? "")")
        }
    }

    @Test func transparentPixelsAreZeroAndOpaqueAreExact() throws {
        let width = 10, height = 4
        let frames: [[UInt8]] = [
            (0..<40).map { $0 < 20 ? 2 : 1 },
            (0..<40).map { $0 < 20 ? 0 : 2 },
            (0..<40).map { _ in 2 },
            (0..<40).map { $0 % 2 == 0 ? 3 : 2 },
        ]
        let (bytes, _) = try encodeGIF(width: width, height: height, colors: colors, transparentIndex: 2, frames: frames, delays: [1, 2, 3, 4])
        let decoded = try GIFDecoder.decode(bytes)
        try #require(decoded.frames.count == 4)
        for (k, frame) in decoded.frames.enumerated() {
            for i in 0..<40 {
                let px = Array(frame[i * 4..<i * 4 + 4])
                let index = Int(frames[k][i])
                if index == 2 {
                    #expect(px == [0, 0, 0, 0], "frame \(k) pixel \(i)")
                } else {
                    #expect(px == [colors[index].r, colors[index].g, colors[index].b, 255], "frame \(k) pixel \(i)")
                }
            }
        }
    }
}

@Suite struct GIFLoopAndErrorTests {
    func encodeTwoFrames(loops: Int) throws -> DecodedGIF {
        let (bytes, _) = try encodeGIF(width: 4, height: 4, colors: fivePalette, loops: loops,
                                       frames: [[UInt8](repeating: 1, count: 16), [UInt8](repeating: 2, count: 16)], delays: [10, 10])
        return try GIFDecoder.decode(bytes)
    }

    @Test func playsForever() throws {
        let d = try encodeTwoFrames(loops: 0)
        #expect(d.repeats == 0)
        #expect(d.loops == 0)
    }

    @Test func playsOnceHasNoLoopBlock() throws {
        let d = try encodeTwoFrames(loops: 1)
        #expect(d.repeats == nil)
        #expect(d.loops == 1)
        #expect(d.frames.count == 2)
    }

    @Test(arguments: [(2, 1), (3, 2), (65535, 65534)])
    func playsCountsAreRepeatsPlusOne(loops: Int, repeats: Int) throws {
        let d = try encodeTwoFrames(loops: loops)
        #expect(d.repeats == repeats)
        #expect(d.loops == loops)
    }

    @Test func wrongFrameSizeThrows() throws {
        let encoder = try GIFEncoder(width: 4, height: 3, colors: fivePalette, transparentIndex: nil, loops: 0)
        #expect(throws: GIFError.self) { try encoder.add([UInt8](repeating: 0, count: 11), delay: 2) }
        #expect(throws: GIFError.self) { try encoder.add([UInt8](repeating: 0, count: 13), delay: 2) }
        // The encoder is still usable afterwards.
        try encoder.add([UInt8](repeating: 1, count: 12), delay: 2)
        let decoded = try GIFDecoder.decode(try encoder.finish())
        #expect(decoded.frames == [expand([UInt8](repeating: 1, count: 12), fivePalette, transparent: nil)])
        #expect(throws: GIFError.self) { _ = try encoder.finish() }
    }

    @Test func paletteSizeIsChecked() {
        let big = (0..<257).map { RGBA8(UInt8($0 & 0xFF), 0, 0) }
        #expect(throws: GIFError.self) { _ = try GIFEncoder(width: 4, height: 4, colors: big, transparentIndex: nil, loops: 0) }
        #expect(throws: GIFError.self) { _ = try GIFEncoder(width: 4, height: 4, colors: [], transparentIndex: nil, loops: 0) }
        #expect(throws: GIFError.self) { _ = try GIFEncoder(width: 0, height: 4, colors: fivePalette, transparentIndex: nil, loops: 0) }
    }

    @Test func garbageDoesNotDecode() {
        #expect(throws: GIFError.self) { _ = try GIFDecoder.decode([]) }
        #expect(throws: GIFError.self) { _ = try GIFDecoder.decode(Array("GIF89a not really".utf8)) }
    }
}

let gifsicle = "/usr/bin/gifsicle"

@Suite(.enabled(if: FileManager.default.isExecutableFile(atPath: gifsicle), "gifsicle is not installed"))
struct GIFGifsicleTests {
    /// gifsicle's report on the file, and anything it complained about.
    func info(_ bytes: [UInt8]) throws -> (info: String, warnings: String) {
        let folder = try TemporaryFolder()
        let file = try folder.write(bytes, to: "a.gif")
        let r = try ChildProcess.run([gifsicle, "--info", file], in: folder.path, timeout: 60)
        #expect(r.status == 0, "\(r.err)")
        let (info, warnings) = (r.out, r.err)
        return (info, warnings)
    }

    @Test func gifsicleReadsOurFiles() throws {
        let (frames, delays) = movingBand()
        let (bytes, _) = try encodeGIF(width: 24, height: 16, colors: fivePalette, frames: frames, delays: delays)
        let (text, warnings) = try info(bytes)
        #expect(warnings.isEmpty, "\(warnings)")
        #expect(text.contains("16 images"), "\(text)")
        #expect(text.contains("logical screen 24x16"), "\(text)")
        #expect(text.contains("global color table [8]"), "\(text)")
        #expect(text.contains("loop forever"), "\(text)")
        let merged = mergedRuns(frames, delays).delays
        let reported = text.split(separator: "\n").compactMap { line -> Int? in
            guard let r = line.range(of: "delay ") else { return nil }
            let rest = line[r.upperBound...].prefix { $0 != "s" && $0 != " " }
            return Double(rest).map { Int(($0 * 100).rounded()) }
        }
        #expect(reported == merged)

        let (twice, _) = try encodeGIF(width: 24, height: 16, colors: fivePalette, loops: 3, frames: frames, delays: delays)
        #expect(try info(twice).info.contains("loop count 2"))
        let (once, _) = try encodeGIF(width: 24, height: 16, colors: fivePalette, loops: 1, frames: frames, delays: delays)
        #expect(!(try info(once).info.contains("loop")))
    }

    @Test func gifsicleReadsTransparentFiles() throws {
        let colors = [RGBA8(200, 30, 40), RGBA8(10, 220, 90), RGBA8(0, 0, 0, 0), RGBA8(250, 250, 10)]
        let frames = movingShapeOverTransparency(width: 30, height: 20, transparent: 2, count: 12)
        // In the palette's own order, the transparent entry keeps its index in the file.
        let (bytes, _) = try encodeGIF(width: 30, height: 20, colors: colors, transparentIndex: 2, colorOrder: .asGiven,
                                       frames: frames, delays: Array(repeating: 2, count: 12))
        let (text, warnings) = try info(bytes)
        #expect(warnings.isEmpty, "\(warnings)")
        #expect(text.contains("12 images"), "\(text)")
        #expect(text.contains("transparent 2"), "\(text)")
    }
}
