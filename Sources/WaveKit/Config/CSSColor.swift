import WavePlatform

/// Colors as CSS Color Level 4 writes them in sRGB: `#rgb`, `#rgba`, `#rrggbb`, `#rrggbbaa`,
/// `rgb()`/`rgba()`, `hsl()`/`hsla()` (the legacy comma syntax and the modern space syntax with an
/// optional `/ alpha`), `transparent` and the 148 named colors, all ASCII case-insensitive.
///
/// Values outside their range are clamped as CSS clamps them (`rgb(300 -5 0)` is `#FF0000`,
/// an alpha of 2 is 1, saturation and lightness to 0…100 %); `none` (modern syntax) is 0. A channel
/// becomes 8 bits by rounding value × 255 half up, as browsers do (`rgb(50% 0 0)` and an alpha of 0.5
/// are 127.5, so 128); rgb() numbers are already on the 0…255 scale and are rounded the same way.
/// hsl() is converted with the algorithm of the CSS specification (css-color-4, "Converting HSL
/// Colors to sRGB"), arranged so that whole-number inputs are computed exactly and halves round up
/// reliably.
enum CSSColor {
    /// The color `text` denotes, or nil.
    static func parse(_ text: String) -> RGBA? {
        guard let s = normalized(text), let first = s.first else { return nil }
        if first == UInt8(ascii: "#") { return hex(s.dropFirst()) }
        if s.allSatisfy(isLetter) { return named[String(decoding: s, as: UTF8.self)] }
        guard let open = s.firstIndex(of: UInt8(ascii: "(")), s.last == UInt8(ascii: ")") else { return nil }
        let name = String(decoding: s[..<open], as: UTF8.self)
        guard let arguments = arguments(s[(open + 1)..<(s.count - 1)]) else { return nil }
        switch name {
        case "rgb", "rgba": return rgb(arguments)
        case "hsl", "hsla": return hsl(arguments)
        default: return nil
        }
    }

    /// Why `text` is not a color, for a message: a named color it is likely a misspelling of, or
    /// the rule it breaks; nil when there is nothing more to say.
    static func advice(for text: String) -> String? {
        let s = text.trimmingWhitespace().lowercased()
        if s.hasPrefix("#") {
            let digits = s.dropFirst()
            guard digits.allSatisfy({ $0.isASCII && $0.isHexDigit }) else { return "after \"#\" come hex digits 0-9 and A-F" }
            return "a hex color has 3, 4, 6 or 8 digits"
        }
        if let open = s.firstIndex(of: "(") {
            switch s[..<open] {
            case "rgb", "rgba":
                return "rgb() takes three numbers 0-255 or three percentages and an optional alpha, as rgb(255, 105, 180) or rgb(255 105 180 / 50%)"
            case "hsl", "hsla":
                return "hsl() takes a hue, a saturation and a lightness and an optional alpha, as hsl(330, 100%, 71%) or hsl(330deg 100% 71% / 50%)"
            case "linear-gradient":
                return "a linear-gradient() is taken only by a layer's color and the background"
            default:
                return "the functions are rgb(), rgba(), hsl() and hsla()"
            }
        }
        guard !s.isEmpty, s.allSatisfy({ $0.isLetter || $0 == " " || $0 == "-" || $0 == "_" }) else { return nil }
        // "Steel Blue" or "steel-blue" for "steelblue": the same letters, another spelling.
        let squeezed = s.filter(\.isLetter)
        let names = namedColors.map(\.name) + ["transparent"]
        let guess = names.contains(squeezed) ? squeezed : KeyAdvice.closest(to: squeezed, among: names) { max(1, $0.count / 3) }
        return guess.map { "did you mean \"\($0)\"?" }
    }

    // MARK: - Text

    /// `text` without surrounding whitespace, ASCII letters lowercased and every inner whitespace
    /// character as a space; nil when it has any other non-ASCII character.
    static func normalized(_ text: String) -> [UInt8]? {
        var bytes: [UInt8] = []
        for scalar in text.trimmingWhitespace().unicodeScalars {
            if scalar.isWhitespaceOrNewline {
                bytes.append(UInt8(ascii: " "))
            } else if scalar.isASCII {
                let b = UInt8(scalar.value)
                bytes.append(b >= UInt8(ascii: "A") && b <= UInt8(ascii: "Z") ? b + 32 : b)
            } else {
                return nil
            }
        }
        return bytes
    }

    static func isLetter(_ b: UInt8) -> Bool { b >= UInt8(ascii: "a") && b <= UInt8(ascii: "z") }
    static func isDigit(_ b: UInt8) -> Bool { b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9") }

    static func hex(_ digits: ArraySlice<UInt8>) -> RGBA? {
        var v: [UInt8] = []
        for d in digits {
            if isDigit(d) {
                v.append(d - UInt8(ascii: "0"))
            } else if d >= UInt8(ascii: "a") && d <= UInt8(ascii: "f") {
                v.append(d - UInt8(ascii: "a") + 10)
            } else {
                return nil
            }
        }
        switch v.count {
        case 3, 4: // Each digit doubled: #F0F8 is #FF00FF88.
            return RGBA(v[0] * 17, v[1] * 17, v[2] * 17, v.count == 4 ? v[3] * 17 : 255)
        case 6, 8:
            return RGBA(v[0] << 4 | v[1], v[2] << 4 | v[3], v[4] << 4 | v[5], v.count == 8 ? v[6] << 4 | v[7] : 255)
        default:
            return nil
        }
    }

    // MARK: - Functions

    /// One value between the parentheses.
    enum Value: Equatable {
        case number(Double)
        case percentage(Double)
        case dimension(Double, unit: String)
        case none
    }

    /// The values of a function and whether they were separated by commas (the legacy syntax:
    /// three or four values) or by spaces (the modern syntax: three values, then `/` and an alpha).
    struct Arguments {
        var values: [Value]
        var commas: Bool
        var alpha: Value? { values.count == 4 ? values[3] : nil }
    }

    enum Token: Equatable {
        case value(Value)
        case comma
        case slash
    }

    /// The arguments between the parentheses, or nil when they are neither syntax (commas and
    /// spaces mixed, a count other than three or four, `none` between commas, an unknown word).
    static func arguments(_ s: ArraySlice<UInt8>) -> Arguments? {
        guard let tokens = tokens(s) else { return nil }
        if tokens.contains(.comma) {
            guard tokens.count == 5 || tokens.count == 7 else { return nil }
            var values: [Value] = []
            for (i, token) in tokens.enumerated() {
                if i % 2 == 1 {
                    guard token == .comma else { return nil }
                } else {
                    guard case let .value(v) = token, v != .none else { return nil }
                    values.append(v)
                }
            }
            return Arguments(values: values, commas: true)
        }
        guard tokens.count == 3 || (tokens.count == 5 && tokens[3] == .slash) else { return nil }
        var values: [Value] = []
        for (i, token) in tokens.enumerated() where i != 3 {
            guard case let .value(v) = token else { return nil }
            values.append(v)
        }
        return Arguments(values: values, commas: false)
    }

    /// Splits the text between the parentheses as the CSS tokenizer does: numbers, percentages,
    /// dimensions (`120deg`), the word `none`, commas and slashes; spaces only separate.
    static func tokens(_ s: ArraySlice<UInt8>) -> [Token]? {
        var result: [Token] = []
        var i = s.startIndex
        func at(_ j: Int) -> UInt8? { j < s.endIndex ? s[j] : nil }
        while i < s.endIndex {
            let c = s[i]
            if c == UInt8(ascii: " ") { i += 1; continue }
            if c == UInt8(ascii: ",") { result.append(.comma); i += 1; continue }
            if c == UInt8(ascii: "/") { result.append(.slash); i += 1; continue }
            if isLetter(c) {
                let start = i
                while let d = at(i), isLetter(d) { i += 1 }
                guard String(decoding: s[start..<i], as: UTF8.self) == "none" else { return nil }
                result.append(.value(.none))
                continue
            }
            // A number: [+-] digits [. digits] [e [+-] digits], or [+-] . digits; "1." is read as 1.
            let start = i
            if c == UInt8(ascii: "+") || c == UInt8(ascii: "-") { i += 1 }
            var digits = 0
            while let d = at(i), isDigit(d) { i += 1; digits += 1 }
            if at(i) == UInt8(ascii: ".") {
                if let d = at(i + 1), isDigit(d) {
                    i += 1
                    while let d = at(i), isDigit(d) { i += 1; digits += 1 }
                } else if digits > 0 {
                    i += 1
                }
            }
            guard digits > 0 else { return nil }
            if at(i) == UInt8(ascii: "e") {
                var j = i + 1
                if at(j) == UInt8(ascii: "+") || at(j) == UInt8(ascii: "-") { j += 1 }
                if let d = at(j), isDigit(d) {
                    i = j
                    while let d = at(i), isDigit(d) { i += 1 }
                }
            }
            guard var n = Double(String(decoding: s[start..<i], as: UTF8.self)) else { return nil }
            if !n.isFinite { n = n < 0 ? -Double.greatestFiniteMagnitude : Double.greatestFiniteMagnitude }
            if at(i) == UInt8(ascii: "%") {
                result.append(.value(.percentage(n)))
                i += 1
            } else if let d = at(i), isLetter(d) {
                let unitStart = i
                while let d = at(i), isLetter(d) { i += 1 }
                result.append(.value(.dimension(n, unit: String(decoding: s[unitStart..<i], as: UTF8.self))))
            } else {
                result.append(.value(.number(n)))
            }
        }
        return result
    }

    /// A value on the 0…255 scale as an 8-bit channel: clamped, then rounded half up.
    static func channel(_ x: Double) -> UInt8 {
        let v = min(255, max(0, x))
        let whole = v.rounded(.down)
        return UInt8(v - whole >= 0.5 ? whole + 1 : whole)
    }

    /// An alpha (a number 0…1 or a percentage) as 8 bits; opaque when absent.
    static func alpha(_ value: Value?) -> UInt8? {
        switch value {
        case nil: return 255
        case let .number(a)?: return channel(min(1, max(0, a)) * 255)
        case let .percentage(p)?: return channel(min(100, max(0, p)) * 255 / 100)
        case .none?: return 0
        case .dimension?: return nil
        }
    }

    static func rgb(_ arguments: Arguments) -> RGBA? {
        let values = arguments.values.prefix(3)
        // Between commas the three are all numbers or all percentages.
        if arguments.commas {
            let numbers = values.allSatisfy { if case .number = $0 { true } else { false } }
            let percentages = values.allSatisfy { if case .percentage = $0 { true } else { false } }
            guard numbers || percentages else { return nil }
        }
        var channels: [UInt8] = []
        for value in values {
            switch value {
            case let .number(n): channels.append(channel(n))
            case let .percentage(p): channels.append(channel(min(100, max(0, p)) * 255 / 100))
            case .none: channels.append(0)
            case .dimension: return nil
            }
        }
        guard let a = alpha(arguments.alpha) else { return nil }
        return RGBA(channels[0], channels[1], channels[2], a)
    }

    static func hsl(_ arguments: Arguments) -> RGBA? {
        let v = arguments.values
        var hue: Double
        switch v[0] {
        case let .number(h): hue = h
        case let .dimension(h, unit):
            switch unit {
            case "deg": hue = h
            case "grad": hue = h * 360 / 400
            case "rad": hue = h * 180 / Double.pi
            case "turn": hue = h * 360
            default: return nil
            }
        case .none: hue = 0
        case .percentage: return nil
        }
        /// Saturation and lightness in percent, clamped to 0…100; a bare number only in the modern syntax.
        func percent(_ value: Value) -> Double? {
            switch value {
            case let .percentage(p): return min(100, max(0, p))
            case let .number(n) where !arguments.commas: return min(100, max(0, n))
            case .none: return 0
            default: return nil
            }
        }
        guard let saturation = percent(v[1]), let lightness = percent(v[2]), let a = alpha(arguments.alpha) else { return nil }
        // A hue too large to turn into degrees (1e308turn) is as good as 0.
        hue = hue.isFinite ? hue.truncatingRemainder(dividingBy: 360) : 0
        if hue < 0 { hue += 360 }
        let rgb = hslToRGB(hue: hue, saturation: saturation, lightness: lightness)
        return RGBA(rgb.0, rgb.1, rgb.2, a)
    }

    /// css-color-4's hslToRgb, with hue in degrees (0…360) and saturation and lightness in percent
    /// (0…100), scaled so that whole-number inputs stay exact: for each channel n of 0 (red),
    /// 8 (green) and 4 (blue), k = (n + hue/30) mod 12, a = s × min(l, 1 − l) and
    /// f = l − a × max(−1, min(k − 3, 9 − k, 1)); here k and the clamp are in degrees (× 30) and
    /// s and l in percent, so f = (3000 l − s × min(l, 100 − l) × m) / 300000.
    static func hslToRGB(hue: Double, saturation s: Double, lightness l: Double) -> (UInt8, UInt8, UInt8) {
        func f(_ n: Double) -> UInt8 {
            var k = (n * 30 + hue).truncatingRemainder(dividingBy: 360)
            if k < 0 { k += 360 }
            let m = max(-30, min(k - 90, 270 - k, 30))
            return channel(255 * (3000 * l - s * min(l, 100 - l) * m) / 300_000)
        }
        return (f(0), f(8), f(4))
    }

    // MARK: - Names

    /// The named colors of css-color-4 ("Named Colors"), `transparent` apart; each grey has its gray.
    static let namedColors: [(name: String, rgb: UInt32)] = [
        ("aliceblue", 0xF0F8FF), ("antiquewhite", 0xFAEBD7), ("aqua", 0x00FFFF), ("aquamarine", 0x7FFFD4),
        ("azure", 0xF0FFFF), ("beige", 0xF5F5DC), ("bisque", 0xFFE4C4), ("black", 0x000000),
        ("blanchedalmond", 0xFFEBCD), ("blue", 0x0000FF), ("blueviolet", 0x8A2BE2), ("brown", 0xA52A2A),
        ("burlywood", 0xDEB887), ("cadetblue", 0x5F9EA0), ("chartreuse", 0x7FFF00), ("chocolate", 0xD2691E),
        ("coral", 0xFF7F50), ("cornflowerblue", 0x6495ED), ("cornsilk", 0xFFF8DC), ("crimson", 0xDC143C),
        ("cyan", 0x00FFFF), ("darkblue", 0x00008B), ("darkcyan", 0x008B8B), ("darkgoldenrod", 0xB8860B),
        ("darkgray", 0xA9A9A9), ("darkgreen", 0x006400), ("darkgrey", 0xA9A9A9), ("darkkhaki", 0xBDB76B),
        ("darkmagenta", 0x8B008B), ("darkolivegreen", 0x556B2F), ("darkorange", 0xFF8C00), ("darkorchid", 0x9932CC),
        ("darkred", 0x8B0000), ("darksalmon", 0xE9967A), ("darkseagreen", 0x8FBC8F), ("darkslateblue", 0x483D8B),
        ("darkslategray", 0x2F4F4F), ("darkslategrey", 0x2F4F4F), ("darkturquoise", 0x00CED1), ("darkviolet", 0x9400D3),
        ("deeppink", 0xFF1493), ("deepskyblue", 0x00BFFF), ("dimgray", 0x696969), ("dimgrey", 0x696969),
        ("dodgerblue", 0x1E90FF), ("firebrick", 0xB22222), ("floralwhite", 0xFFFAF0), ("forestgreen", 0x228B22),
        ("fuchsia", 0xFF00FF), ("gainsboro", 0xDCDCDC), ("ghostwhite", 0xF8F8FF), ("gold", 0xFFD700),
        ("goldenrod", 0xDAA520), ("gray", 0x808080), ("green", 0x008000), ("greenyellow", 0xADFF2F),
        ("grey", 0x808080), ("honeydew", 0xF0FFF0), ("hotpink", 0xFF69B4), ("indianred", 0xCD5C5C),
        ("indigo", 0x4B0082), ("ivory", 0xFFFFF0), ("khaki", 0xF0E68C), ("lavender", 0xE6E6FA),
        ("lavenderblush", 0xFFF0F5), ("lawngreen", 0x7CFC00), ("lemonchiffon", 0xFFFACD), ("lightblue", 0xADD8E6),
        ("lightcoral", 0xF08080), ("lightcyan", 0xE0FFFF), ("lightgoldenrodyellow", 0xFAFAD2), ("lightgray", 0xD3D3D3),
        ("lightgreen", 0x90EE90), ("lightgrey", 0xD3D3D3), ("lightpink", 0xFFB6C1), ("lightsalmon", 0xFFA07A),
        ("lightseagreen", 0x20B2AA), ("lightskyblue", 0x87CEFA), ("lightslategray", 0x778899), ("lightslategrey", 0x778899),
        ("lightsteelblue", 0xB0C4DE), ("lightyellow", 0xFFFFE0), ("lime", 0x00FF00), ("limegreen", 0x32CD32),
        ("linen", 0xFAF0E6), ("magenta", 0xFF00FF), ("maroon", 0x800000), ("mediumaquamarine", 0x66CDAA),
        ("mediumblue", 0x0000CD), ("mediumorchid", 0xBA55D3), ("mediumpurple", 0x9370DB), ("mediumseagreen", 0x3CB371),
        ("mediumslateblue", 0x7B68EE), ("mediumspringgreen", 0x00FA9A), ("mediumturquoise", 0x48D1CC), ("mediumvioletred", 0xC71585),
        ("midnightblue", 0x191970), ("mintcream", 0xF5FFFA), ("mistyrose", 0xFFE4E1), ("moccasin", 0xFFE4B5),
        ("navajowhite", 0xFFDEAD), ("navy", 0x000080), ("oldlace", 0xFDF5E6), ("olive", 0x808000),
        ("olivedrab", 0x6B8E23), ("orange", 0xFFA500), ("orangered", 0xFF4500), ("orchid", 0xDA70D6),
        ("palegoldenrod", 0xEEE8AA), ("palegreen", 0x98FB98), ("paleturquoise", 0xAFEEEE), ("palevioletred", 0xDB7093),
        ("papayawhip", 0xFFEFD5), ("peachpuff", 0xFFDAB9), ("peru", 0xCD853F), ("pink", 0xFFC0CB),
        ("plum", 0xDDA0DD), ("powderblue", 0xB0E0E6), ("purple", 0x800080), ("rebeccapurple", 0x663399),
        ("red", 0xFF0000), ("rosybrown", 0xBC8F8F), ("royalblue", 0x4169E1), ("saddlebrown", 0x8B4513),
        ("salmon", 0xFA8072), ("sandybrown", 0xF4A460), ("seagreen", 0x2E8B57), ("seashell", 0xFFF5EE),
        ("sienna", 0xA0522D), ("silver", 0xC0C0C0), ("skyblue", 0x87CEEB), ("slateblue", 0x6A5ACD),
        ("slategray", 0x708090), ("slategrey", 0x708090), ("snow", 0xFFFAFA), ("springgreen", 0x00FF7F),
        ("steelblue", 0x4682B4), ("tan", 0xD2B48C), ("teal", 0x008080), ("thistle", 0xD8BFD8),
        ("tomato", 0xFF6347), ("turquoise", 0x40E0D0), ("violet", 0xEE82EE), ("wheat", 0xF5DEB3),
        ("white", 0xFFFFFF), ("whitesmoke", 0xF5F5F5), ("yellow", 0xFFFF00), ("yellowgreen", 0x9ACD32),
    ]

    /// Every name, `transparent` included, to its color.
    static let named: [String: RGBA] = {
        var table = ["transparent": RGBA.transparent]
        for (name, v) in namedColors { table[name] = RGBA(UInt8(v >> 16), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)) }
        return table
    }()
}
