import WavePlatform

/// An 8-bit straight-alpha sRGB color, as written in presets and stored in palettes.
public struct RGBA: Hashable, Sendable, CustomStringConvertible {
    public var r: UInt8
    public var g: UInt8
    public var b: UInt8
    public var a: UInt8

    public init(_ r: UInt8, _ g: UInt8, _ b: UInt8, _ a: UInt8 = 255) {
        self.r = r
        self.g = g
        self.b = b
        self.a = a
    }

    public static let transparent = RGBA(0, 0, 0, 0)
    public static let white = RGBA(255, 255, 255)
    public static let black = RGBA(0, 0, 0)

    /// `#RRGGBB`, or `#RRGGBBAA` when not opaque.
    public var description: String {
        func hex(_ v: UInt8) -> String { let s = String(v, radix: 16, uppercase: true); return s.count == 1 ? "0" + s : s }
        return "#" + hex(r) + hex(g) + hex(b) + (a == 255 ? "" : hex(a))
    }

    /// Parses a color as CSS writes it: `#RGB`, `#RGBA`, `#RRGGBB`, `#RRGGBBAA`, `rgb()`/`rgba()`,
    /// `hsl()`/`hsla()`, `transparent` or a CSS named color such as `steelblue` (see `CSSColor`);
    /// returns nil for anything else.
    public init?(parsing text: String) {
        guard let color = CSSColor.parse(text) else { return nil }
        self = color
    }

    /// Why `text` is not a color, for a message (a likely meant name, or the rule it breaks).
    public static func advice(for text: String) -> String? { CSSColor.advice(for: text) }
}

/// A premultiplied-alpha color with components in 0…1, used while compositing.
public struct PremultipliedColor: Equatable, Sendable {
    public var r: Double
    public var g: Double
    public var b: Double
    public var a: Double

    public init(r: Double, g: Double, b: Double, a: Double) {
        self.r = r
        self.g = g
        self.b = b
        self.a = a
    }

    public static let clear = PremultipliedColor(r: 0, g: 0, b: 0, a: 0)

    /// The color `c` with its alpha multiplied by `opacity`.
    public init(_ c: RGBA, opacity: Double = 1) {
        let a = Double(c.a) / 255 * opacity
        self.init(r: Double(c.r) / 255 * a, g: Double(c.g) / 255 * a, b: Double(c.b) / 255 * a, a: a)
    }

    /// Source-over: `top` painted over `self` with coverage `coverage` (0…1).
    @inline(__always)
    public func under(_ top: PremultipliedColor, coverage: Double) -> PremultipliedColor {
        let k = 1 - top.a * coverage
        return PremultipliedColor(r: r * k + top.r * coverage, g: g * k + top.g * coverage,
                                  b: b * k + top.b * coverage, a: a * k + top.a * coverage)
    }

    /// Linear interpolation towards `other` by `t` (0…1).
    public func mixed(with other: PremultipliedColor, _ t: Double) -> PremultipliedColor {
        PremultipliedColor(r: r + (other.r - r) * t, g: g + (other.g - g) * t,
                           b: b + (other.b - b) * t, a: a + (other.a - a) * t)
    }

    /// Rounded to 8-bit straight alpha; a fully transparent color becomes `RGBA.transparent`.
    @inline(__always)
    public var straight: RGBA {
        // Opaque: each channel divided by 1 is itself (the same bits, no division).
        if a == 1 {
            return RGBA(PremultipliedColor.byte(r * 255), PremultipliedColor.byte(g * 255), PremultipliedColor.byte(b * 255), 255)
        }
        return straightDividing
    }

    /// `straight` for any alpha, every channel divided by it (the plain form).
    var straightDividing: RGBA {
        let alpha = (a * 255).rounded()
        guard alpha > 0 else { return .transparent }
        return RGBA(PremultipliedColor.byte(r / a * 255), PremultipliedColor.byte(g / a * 255), PremultipliedColor.byte(b / a * 255),
                    UInt8(max(0, min(255, alpha))))
    }

    /// `x` rounded half away from zero and clamped to a byte, as `plainByte` (NaN gives 255, as
    /// there), without a call to the C library's `round`: x + ½ truncated, which is the answer
    /// unless the sum rounded up to the next whole number (x just under a half-way point: then x
    /// lies below that number less ½, a comparison without rounding, and one is taken back).
    @inline(__always)
    static func byte(_ x: Double) -> UInt8 {
        guard x > 0 else { return x.isNaN ? 255 : 0 }
        guard x < 254.5 else { return 255 }
        let whole = Int(x + 0.5)
        return UInt8(x < Double(whole) - 0.5 ? whole - 1 : whole)
    }

    /// `byte` as first written: the C library's rounding, then the clamp.
    static func plainByte(_ x: Double) -> UInt8 {
        UInt8(max(0, min(255, x.rounded())))
    }
}
