/// What the indexed frames will become, which decides how partly transparent pixels are stored.
public enum RenderTarget: Equatable, Sendable {
    /// True straight alpha (WebP, PNG).
    case rgba
    /// One transparent index; partly covered pixels over a transparent background follow `edges`.
    case gif(GIFOptions)

    /// The color a pixel of premultiplied color `c` at (x, y) is stored as, or nil for the transparent index.
    @inline(__always)
    func store(_ c: PremultipliedColor, x: Int, y: Int) -> RGBA? {
        switch self {
        case .rgba:
            return c.straight
        case let .gif(options):
            if c.a >= 1 - 1e-9 { return c.straight }
            if c.a * 255 < 0.5 { return nil }
            switch options.edges {
            case .matte:
                return PremultipliedColor(options.matte).under(c, coverage: 1).straight
            case .cut:
                return c.a >= 0.5 ? opaque(c) : nil
            case .dither:
                return c.a > RenderTarget.bayer(x, y) ? opaque(c) : nil
            }
        }
    }

    /// Whether a pixel of premultiplied color `c` is stored blended against `gif.matte`: partly
    /// covered over a transparent background (its alpha in 8 bits is 1…254), with
    /// `"edges": "matte"`. On the matte page such a pixel left transparent shows the matte, so
    /// the lossy GIF coder may leave it transparent where its stored color lies within the bound
    /// of the matte.
    @inline(__always)
    func blendsWithMatte(_ c: PremultipliedColor) -> Bool {
        guard case let .gif(options) = self, options.edges == .matte else { return false }
        return c.a * 255 < 254.5 && c.a * 255 >= 0.5
    }

    /// Whether any pixel can be stored blended against `gif.matte`.
    var blendsEdgesWithMatte: Bool {
        if case let .gif(options) = self { return options.edges == .matte }
        return false
    }

    private func opaque(_ c: PremultipliedColor) -> RGBA {
        var s = c.straight
        s.a = 255
        return s
    }

    /// Whether a color's stored form depends on where the pixel is (dithered partial alpha).
    func dependsOnPosition(_ c: PremultipliedColor) -> Bool {
        if case let .gif(options) = self, options.edges == .dither { return c.a * 255 >= 0.5 && c.a < 1 - 1e-9 }
        return false
    }

    /// Ordered-dither threshold in (0, 1) from the 8 × 8 Bayer matrix.
    static func bayer(_ x: Int, _ y: Int) -> Double {
        (Double(bayerMatrix[(y & 7) * 8 + (x & 7)]) + 0.5) / 64
    }

    private static let bayerMatrix: [UInt8] = [
        0, 32, 8, 40, 2, 34, 10, 42,
        48, 16, 56, 24, 50, 18, 58, 26,
        12, 44, 4, 36, 14, 46, 6, 38,
        60, 28, 52, 20, 62, 30, 54, 22,
        3, 35, 11, 43, 1, 33, 9, 41,
        51, 19, 59, 27, 49, 17, 57, 25,
        15, 47, 7, 39, 13, 45, 5, 37,
        63, 31, 55, 23, 61, 29, 53, 21,
    ]
}
