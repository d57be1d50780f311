import Foundation
import Testing
@testable import WaveGIF
import WaveTestSupport

/// Pixels of runs, repeats and noise below 2^`bits`, so the string table grows, fills and resets.
func lzwTestPixels(count: Int, bits: Int, seed: Int) -> [UInt8] {
    let colors = 1 << bits
    var state = UInt32(truncatingIfNeeded: seed &* 7919 &+ 1)
    return (0..<count).map { i in
        state = state &* 1_103_515_245 &+ 12345
        let noise = Int(state >> 16) % colors
        return UInt8(i % 97 < 40 ? (i / 13) % colors : noise)
    }
}

@Suite struct LZWCoderTests {
    /// The coder counts the bits `LZWSizer` counts, stops exactly past a limit, and writes the
    /// data sub-blocks giflib writes for the same pixels (`EGifPutLine`, read back from its file).
    @Test(arguments: [2, 3, 4, 5, 6, 7, 8])
    func codesAsGiflibDoes(bits: Int) throws {
        let colors = distinctColors(1 << bits)
        var coder = LZWCoder()
        var sizer = LZWSizer()
        // Sizes from one pixel up, past one 255-byte sub-block and past several table resets.
        for (width, height, seed) in [(1, 1, 1), (7, 3, 2), (64, 64, 3), (300, 41, 4), (509, 257, 5)] {
            let pixels = lzwTestPixels(count: width * height, bits: bits, seed: seed)
            let codeSize = GIFStream.minimumCodeSize(maxIndex: Int(pixels.max() ?? 0))
            let counted = pixels.withUnsafeBufferPointer { sizer.bits($0, minimumCodeSize: codeSize) }
            let coded = try #require(pixels.withUnsafeBufferPointer { coder.code($0, minimumCodeSize: codeSize) })
            #expect(coded == counted, "\(width)×\(height): coder \(coded) bits, sizer \(counted)")
            let blocks = Array(coder.blocks)

            let giflib = try GIFEncoder(width: width, height: height, colors: colors, transparentIndex: nil, loops: 0,
                                        colorOrder: .asGiven, codesItself: false)
            try giflib.add(pixels, delay: 2)
            let file = try giflib.finish()
            #expect(try giflibData(file) == blocks, "\(width)×\(height) at \(bits) bits")

            #expect(pixels.withUnsafeBufferPointer { coder.code($0, minimumCodeSize: codeSize, limit: counted) } == counted)
            // Under a lower limit it gives up, or (the last two codes are not checked) finishes past it.
            for limit in [counted / 2, counted - 1] {
                let r = pixels.withUnsafeBufferPointer { coder.code($0, minimumCodeSize: codeSize, limit: limit) }
                #expect(r == nil || r == counted)
                if width * height > 1000 && limit == counted / 2 { #expect(r == nil) }
            }
        }
    }

    /// A coder that gave up at its limit, part of its table filled, codes the next pixels as a
    /// fresh coder does (its table emptied of the abandoned slots).
    @Test func codingAfterGivingUpMatchesAFreshCoder() throws {
        var reused = LZWCoder()
        for seed in 0..<6 {
            let pixels = lzwTestPixels(count: 3000 + seed * 1700, bits: 4 + seed % 5, seed: seed)
            let codeSize = GIFStream.minimumCodeSize(maxIndex: Int(pixels.max() ?? 0))
            #expect(pixels.withUnsafeBufferPointer { reused.code($0, minimumCodeSize: codeSize, limit: 100 + seed * 997) } == nil)
            let other = lzwTestPixels(count: 5000, bits: 4 + seed % 5, seed: seed + 50)
            var fresh = LZWCoder()
            let a = other.withUnsafeBufferPointer { reused.code($0, minimumCodeSize: codeSize) }
            let b = other.withUnsafeBufferPointer { fresh.code($0, minimumCodeSize: codeSize) }
            #expect(a != nil && a == b)
            #expect(Array(reused.blocks) == Array(fresh.blocks))
        }
    }

    /// A sizer that stopped at its limit after the table had filled (and been reset) counts the
    /// next pixels as a fresh sizer does (none of the stopped count's entries is taken as live).
    @Test func countingAfterGivingUpMatchesAFreshSizer() {
        var reused = LZWSizer()
        for seed in 0..<6 {
            let pixels = lzwTestPixels(count: 40000, bits: 4 + seed % 5, seed: seed)
            let codeSize = GIFStream.minimumCodeSize(maxIndex: Int(pixels.max() ?? 0))
            var first = LZWSizer()
            let full = pixels.withUnsafeBufferPointer { first.bits($0, minimumCodeSize: codeSize) }
            #expect(pixels.withUnsafeBufferPointer { reused.bits($0, minimumCodeSize: codeSize, limit: full * 9 / 10) } > full * 9 / 10)
            let other = lzwTestPixels(count: 40000, bits: 4 + seed % 5, seed: seed + 50)
            var fresh = LZWSizer()
            let a = other.withUnsafeBufferPointer { reused.bits($0, minimumCodeSize: codeSize) }
            let b = other.withUnsafeBufferPointer { fresh.bits($0, minimumCodeSize: codeSize) }
            #expect(a == b, "seed \(seed): \(a) bits after giving up, \(b) fresh")
        }
    }

    /// Whole animations: the encoder coding frames itself writes the file giflib's coder writes,
    /// byte for byte, with a transparent key or a free entry for unchanged pixels, and lossy.
    @Test(arguments: [(nil, 0), (5, 0), (nil, 12), (5, 12)] as [(Int?, Int)])
    func encoderWritesGiflibsBytes(transparent: Int?, lossy: Int) throws {
        let width = 83, height = 47
        var colors = distinctColors(40)
        if let t = transparent { colors[t] = RGBA8(0, 0, 0, 0) }
        var frames: [[UInt8]] = []
        for k in 0..<14 {
            frames.append((0..<width * height).map { i in
                let x = i % width, y = i / width
                let surface = 20 + Int(6 * sin(Double(x + 4 * k) / 7))
                if y < surface { return UInt8(transparent ?? 1) }
                if y == surface { return UInt8(10 + (x + k) % 7) }
                return k % 5 == 4 && x > 60 ? 30 : UInt8(20 + (x / 9 + y / 11 + k / 3) % 6)
            })
        }
        frames.append(frames[13])
        func encode(_ itself: Bool) throws -> [UInt8] {
            let e = try GIFEncoder(width: width, height: height, colors: colors, transparentIndex: transparent, loops: 0,
                                   lossy: lossy, codesItself: itself)
            for f in frames { try e.add(f, delay: 3) }
            return try e.finish()
        }
        let fast = try encode(true), plain = try encode(false)
        #expect(fast == plain, "\(fast.count) vs \(plain.count) bytes")
        if lossy == 0 {
            #expect(try GIFDecoder.decode(fast).frames.count == 14)
        }
    }
}

/// The data sub-blocks (length bytes included, terminator not) of a one-image GIF.
func giflibData(_ bytes: [UInt8]) throws -> [UInt8] {
    var p = 13
    if bytes[10] & 0x80 != 0 { p += 3 << (Int(bytes[10] & 7) + 1) }
    while p < bytes.count {
        switch bytes[p] {
        case 0x21:
            p += 2
            while bytes[p] != 0 { p += Int(bytes[p]) + 1 }
            p += 1
        case 0x2C:
            p += 10
            if bytes[p - 1] & 0x80 != 0 { p += 3 << (Int(bytes[p - 1] & 7) + 1) }
            p += 1 // the LZW minimum code size
            let start = p
            while bytes[p] != 0 { p += Int(bytes[p]) + 1 }
            return Array(bytes[start..<p])
        default:
            throw GIFError(operation: "reading", message: "unexpected block \(bytes[p]) at \(p)")
        }
    }
    throw GIFError(operation: "reading", message: "no image")
}
