import Foundation
import Testing
import WaveWebP
import WaveTestSupport

/// Frames with every kind of pixel: opaque, partly transparent with arbitrary colors, and fully
/// transparent; a block moves so that consecutive frames differ in part only. Fully transparent
/// pixels are 0,0,0,0, as the renderer draws them (a player never shows their color anyway).
func mixedAlphaFrames(width: Int, height: Int, count: Int) -> [[UInt8]] {
    var rng = SeededGenerator(state: 42)
    var base = [UInt8](repeating: 0, count: width * height * 4)
    for i in 0..<width * height {
        let x = i % width, y = i / width
        let alpha: UInt8
        switch (x / 4 + y / 4) % 4 {
        case 0: alpha = 255
        case 1: alpha = 0
        default: alpha = UInt8.random(in: 1...254, using: &rng)
        }
        base[i * 4] = UInt8.random(in: 0...255, using: &rng)
        base[i * 4 + 1] = UInt8.random(in: 0...255, using: &rng)
        base[i * 4 + 2] = UInt8.random(in: 0...255, using: &rng)
        base[i * 4 + 3] = alpha
        if alpha == 0 { for c in 0..<3 { base[i * 4 + c] = 0 } }
    }
    return (0..<count).map { k in
        var f = base
        for y in 2..<10 {
            for x in 0..<8 {
                let p = (y * width + (x + 3 * k) % width) * 4
                f[p] = UInt8(30 * k & 0xFF)
                f[p + 1] = UInt8(x * 20)
                f[p + 2] = UInt8(y * 15)
                f[p + 3] = UInt8(40 + 25 * x)
            }
        }
        // A few pixels change alpha only, some to and from fully transparent.
        for j in 0..<6 {
            let p = ((height - 1 - j) * width + k) * 4
            f[p + 3] = k % 2 == 0 ? 0 : 128
            if f[p + 3] == 0 { f[p] = 0; f[p + 1] = 0; f[p + 2] = 0 }
        }
        return f
    }
}

func encodeWebP(width: Int, height: Int, options: WebPAnimationEncoder.Options, frames: [[UInt8]], durations: [Int]) throws -> [UInt8] {
    let encoder = try WebPAnimationEncoder(width: width, height: height, options: options)
    for (f, d) in zip(frames, durations) { try encoder.add(rgba: f, duration: d) }
    return try encoder.finish()
}

/// Peak signal-to-noise ratio of two RGBA buffers, over every channel.
func psnr(_ a: [UInt8], _ b: [UInt8]) -> Double {
    var sum = 0.0
    for (x, y) in zip(a, b) {
        let d = Double(x) - Double(y)
        sum += d * d
    }
    let mse = sum / Double(max(1, a.count))
    return mse == 0 ? .infinity : 10 * log10(255 * 255 / mse)
}

@Suite struct WebPRoundTripTests {
    let width = 36, height = 28
    let durations = [40, 70, 20, 100, 33, 57, 1000]

    @Test func losslessIsExactIncludingPartialAlpha() throws {
        let frames = mixedAlphaFrames(width: width, height: height, count: durations.count)
        let bytes = try encodeWebP(width: width, height: height, options: .init(lossless: true, quality: 75, effort: 4, loops: 0),
                                   frames: frames, durations: durations)
        let decoded = try WebPAnimationDecoder.decode(bytes)
        #expect(decoded.width == width && decoded.height == height)
        #expect(decoded.frames.count == frames.count)
        #expect(decoded.durations == durations)
        #expect(decoded.loops == 0)
        for k in 0..<min(frames.count, decoded.frames.count) {
            let same = decoded.frames[k] == frames[k]
            #expect(same, "frame \(k): \(firstDifference(decoded.frames[k], frames[k], width: width) ?? "")")
        }
    }

    /// The encoder's most thorough setting (which also minimises the frame layout) is exact too.
    @Test func losslessAtHighestEffortIsExact() throws {
        let frames = mixedAlphaFrames(width: width, height: height, count: 4)
        let bytes = try encodeWebP(width: width, height: height, options: .init(lossless: true, quality: 100, effort: 6, loops: 0),
                                   frames: frames, durations: [20, 20, 20, 20])
        let decoded = try WebPAnimationDecoder.decode(bytes)
        #expect(decoded.frames.count == 4)
        #expect(decoded.durations == [20, 20, 20, 20])
        for k in 0..<min(frames.count, decoded.frames.count) {
            let same = decoded.frames[k] == frames[k]
            #expect(same, "frame \(k): \(firstDifference(decoded.frames[k], frames[k], width: width) ?? "")")
        }
    }

    /// libwebp folds a frame identical to the one before into it; the time on screen must add up.
    @Test func identicalFramesMergeWithSummedDurations() throws {
        let f = mixedAlphaFrames(width: width, height: height, count: 3)
        let bytes = try encodeWebP(width: width, height: height, options: .init(),
                                   frames: [f[0], f[0], f[1], f[2], f[2], f[2]], durations: [30, 40, 50, 60, 70, 80])
        let decoded = try WebPAnimationDecoder.decode(bytes)
        #expect(decoded.frames == f)
        #expect(decoded.durations == [70, 50, 210])
    }

    /// One frame is written as a still image (no animation chunk, so no duration to keep).
    @Test func singleFrameIsExact() throws {
        let frame = mixedAlphaFrames(width: width, height: height, count: 1)[0]
        let bytes = try encodeWebP(width: width, height: height, options: .init(), frames: [frame], durations: [250])
        let decoded = try WebPAnimationDecoder.decode(bytes)
        #expect(decoded.frames == [frame])
    }

    @Test(arguments: [0, 1, 2, 7])
    func playsAreStored(loops: Int) throws {
        let frames = mixedAlphaFrames(width: width, height: height, count: 2)
        let bytes = try encodeWebP(width: width, height: height, options: .init(loops: loops), frames: frames, durations: [50, 60])
        let decoded = try WebPAnimationDecoder.decode(bytes)
        #expect(decoded.loops == loops)
        #expect(decoded.durations == [50, 60])
    }

    @Test(arguments: [true, false])
    func encodingIsDeterministic(lossless: Bool) throws {
        let frames = mixedAlphaFrames(width: width, height: height, count: 5)
        let options = WebPAnimationEncoder.Options(lossless: lossless, quality: 80, effort: 4, loops: 0)
        let a = try encodeWebP(width: width, height: height, options: options, frames: frames, durations: [20, 20, 30, 20, 40])
        let b = try encodeWebP(width: width, height: height, options: options, frames: frames, durations: [20, 20, 30, 20, 40])
        #expect(a == b)
    }

    @Test func lossyStaysClose() throws {
        // Smooth opaque content, as lossy WebP is meant for: gradients and a moving disc.
        let w = 64, h = 48, count = 6
        let frames: [[UInt8]] = (0..<count).map { k in
            var f = [UInt8](repeating: 255, count: w * h * 4)
            for y in 0..<h {
                for x in 0..<w {
                    let p = (y * w + x) * 4
                    let dx = Double(x - 10 - 8 * k), dy = Double(y - 24)
                    let inside = dx * dx + dy * dy < 100
                    f[p] = inside ? 30 : UInt8(x * 255 / w)
                    f[p + 1] = inside ? 136 : UInt8(y * 255 / h)
                    f[p + 2] = inside ? 229 : UInt8(128 + k * 10)
                }
            }
            return f
        }
        let durations = [20, 20, 20, 20, 20, 30]
        let bytes = try encodeWebP(width: w, height: h, options: .init(lossless: false, quality: 80, effort: 4, loops: 0),
                                   frames: frames, durations: durations)
        let decoded = try WebPAnimationDecoder.decode(bytes)
        #expect(decoded.frames.count == count)
        #expect(decoded.durations == durations)
        for k in 0..<min(count, decoded.frames.count) {
            let db = psnr(decoded.frames[k], frames[k])
            #expect(db > 30, "frame \(k): PSNR \(db) dB")
        }
        // Lossy animations may keep a frame lossless where that codes smaller, never larger.
        let lossless = try encodeWebP(width: w, height: h, options: .init(lossless: true, quality: 75, effort: 4, loops: 0),
                                      frames: frames, durations: durations)
        #expect(bytes.count <= lossless.count, "lossy \(bytes.count) bytes, lossless \(lossless.count)")
    }

    @Test func lossyKeepsAlphaExactly() throws {
        let frames = mixedAlphaFrames(width: width, height: height, count: 3)
        let bytes = try encodeWebP(width: width, height: height, options: .init(lossless: false, quality: 80, effort: 4, loops: 0),
                                   frames: frames, durations: [30, 30, 30])
        let decoded = try WebPAnimationDecoder.decode(bytes)
        #expect(decoded.frames.count == 3)
        for k in 0..<min(3, decoded.frames.count) {
            // Alpha is coded losslessly even in lossy mode.
            let alpha = stride(from: 3, to: frames[k].count, by: 4).map { frames[k][$0] }
            let decodedAlpha = stride(from: 3, to: decoded.frames[k].count, by: 4).map { decoded.frames[k][$0] }
            #expect(decodedAlpha == alpha, "frame \(k)")
        }
    }

    @Test func badInputIsRejected() throws {
        #expect(throws: WebPError.self) { _ = try WebPAnimationEncoder(width: 0, height: 10, options: .init()) }
        #expect(throws: WebPError.self) { _ = try WebPAnimationEncoder(width: 10, height: 10, options: .init(quality: 101)) }
        let encoder = try WebPAnimationEncoder(width: 4, height: 4, options: .init())
        #expect(throws: WebPError.self) { try encoder.add(rgba: [UInt8](repeating: 0, count: 63), duration: 10) }
        try encoder.add(rgba: [UInt8](repeating: 200, count: 64), duration: 10)
        let decoded = try WebPAnimationDecoder.decode(try encoder.finish())
        #expect(decoded.frames == [[UInt8](repeating: 200, count: 64)])
        #expect(throws: WebPError.self) { _ = try encoder.finish() }
        #expect(throws: WebPError.self) { _ = try WebPAnimationDecoder.decode([]) }
        #expect(throws: WebPError.self) { _ = try WebPAnimationDecoder.decode(Array("RIFF....WEBPVP8X".utf8)) }
    }
}
