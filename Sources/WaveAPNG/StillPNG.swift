/// A still 8-bit RGBA PNG, as small as the APNG encoder's tools make it: every row filter strategy
/// (each of the five filters on every row, and the per-row choice by least sum of absolute values)
/// ranked with a fast deflate, the smallest compressed again with libdeflate's strongest level.
/// Deterministic. For images embedded in other files (the vector writers' rider), where libpng's
/// defaults were about a quarter larger (the bundled boat at 246×214: 8,303 bytes, here 6,509).
public enum StillPNG {
    /// The PNG file of `rgba` (straight alpha, `width` × `height` × 4 bytes).
    public static func encode(rgba: [UInt8], width: Int, height: Int) throws(StillPNGError) -> [UInt8] {
        guard width > 0, height > 0, rgba.count == width * height * 4 else {
            throw StillPNGError("a \(width)×\(height) RGBA image needs \(max(0, width * height * 4)) bytes, got \(rgba.count)")
        }
        let strategies: [RowFilter.Strategy] = RowFilter.Kind.allCases.map { .uniform($0) } + [.adaptive]
        let best = RowFilter.smallest(rgba, rowBytes: width * 4, bytesPerPixel: 4, strategies: strategies,
                                      trial: Deflater(.libdeflate(level: 6)))
        var out = PNGChunkWriter()
        out.header(width: width, height: height, bitDepth: 8, colorType: 6)
        out.chunk("IDAT", Deflater(.libdeflate(level: 12)).zlib(best.raw))
        out.chunk("IEND", [])
        return out.bytes
    }
}

/// Why a still PNG could not be written (its description reads "PNG: …", not "APNG: …", since the
/// still is embedded in other formats' files).
public struct StillPNGError: Error, Equatable, Sendable, CustomStringConvertible {
    public var message: String

    public init(_ message: String) {
        self.message = message
    }

    public var description: String { "PNG: \(message)" }
}
