import CDeflate
import CZopfli
import WavePlatform

/// zlib streams for PNG image data: libdeflate at a chosen level (fast, deterministic), or Zopfli's
/// exhaustive search for the last few percent.
final class Deflater {
    enum Engine: Equatable {
        /// libdeflate, levels 1…12.
        case libdeflate(level: Int)
        /// Zopfli with this many iterations.
        case zopfli(iterations: Int)
    }

    let engine: Engine
    private let compressor: OpaquePointer?
    private var buffer: [UInt8] = []

    init(_ engine: Engine) {
        self.engine = engine
        if case let .libdeflate(level) = engine {
            compressor = libdeflate_alloc_compressor(Int32(max(1, min(12, level))))
        } else {
            compressor = nil
        }
    }

    deinit {
        if let compressor { libdeflate_free_compressor(compressor) }
    }

    /// The zlib stream of `data`.
    func zlib(_ data: [UInt8]) -> [UInt8] {
        switch engine {
        case .libdeflate:
            guard let compressor else { return [] }
            let bound = libdeflate_zlib_compress_bound(compressor, data.count)
            if buffer.count < bound { buffer = [UInt8](repeating: 0, count: bound) }
            let written = data.withUnsafeBytes { input in
                buffer.withUnsafeMutableBytes { output in
                    libdeflate_zlib_compress(compressor, input.baseAddress, data.count, output.baseAddress, bound)
                }
            }
            return Array(buffer[0..<written])
        case let .zopfli(iterations):
            var options = ZopfliOptions()
            ZopfliInitOptions(&options)
            options.numiterations = Int32(iterations)
            var out: UnsafeMutablePointer<UInt8>?
            var size = 0
            data.withUnsafeBufferPointer { input in
                ZopfliCompress(&options, ZOPFLI_FORMAT_ZLIB, input.baseAddress, data.count, &out, &size)
            }
            defer { CMemory.release(out) }
            guard let out else { return [] }
            return Array(UnsafeBufferPointer(start: out, count: size))
        }
    }

    /// The CRC-32 of a chunk's type and data.
    static func crc32(_ bytes: ArraySlice<UInt8>) -> UInt32 {
        bytes.withUnsafeBytes { libdeflate_crc32(0, $0.baseAddress, $0.count) }
    }
}

extension APNGEncoder {
    /// The deflate library's version, for build digests.
    public static var libraryVersion: String { LIBDEFLATE_VERSION_STRING }
}

extension APNGEncoder {
    /// Zopfli's identity, for build digests. Zopfli has no version call, so this is the length and
    /// an FNV-1a hash of what it makes of a fixed sample: a Zopfli
    /// that would write other bytes for wavegen's frames almost surely writes other bytes here.
    public static let zopfliIdentity: String = {
        var sample: [UInt8] = []
        var x: UInt32 = 0x1234_5678
        for i in 0..<4096 {
            x = x &* 1_103_515_245 &+ 12345
            sample.append(i % 7 == 0 ? UInt8(truncatingIfNeeded: x >> 16) : UInt8(i / 64 % 4))
        }
        let stream = Deflater(.zopfli(iterations: 5)).zlib(sample)
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in stream { h = (h ^ UInt64(b)) &* 0x100_0000_01b3 }
        return "sample \(stream.count) bytes, fnv \(String(h, radix: 16))"
    }()
}
