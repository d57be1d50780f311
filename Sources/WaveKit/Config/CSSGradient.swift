import WavePlatform

/// `linear-gradient()` as CSS Images Level 3 writes it: an optional direction (an angle in `deg`,
/// `grad`, `rad` or `turn`, a bare `0`, or `to` and a side or corner; `to bottom` when absent),
/// then two or more color stops, each a color as `CSSColor` reads it followed by up to two
/// percentages. Function names, units and keywords are ASCII case-insensitive.
enum CSSGradient {
    /// Whether `text` is written as a gradient function (so a problem with it is a gradient's).
    static func looksLikeGradient(_ text: String) -> Bool {
        let s = text.trimmingWhitespace().lowercased()
        return s.hasPrefix("linear-gradient") || s.hasPrefix("repeating-") || s.hasPrefix("radial-gradient") || s.hasPrefix("conic-gradient")
    }

    /// The gradient `text` denotes, or why it is none (one line, for a message).
    static func parse(_ text: String) -> Result<LinearGradient, GradientProblem> {
        let s = text.trimmingWhitespace()
        guard let open = s.firstIndex(of: "(") else { return .failure("expected linear-gradient(…)") }
        let name = s[..<open].trimmingWhitespace().lowercased()
        switch name {
        case "linear-gradient": break
        case "repeating-linear-gradient", "radial-gradient", "repeating-radial-gradient", "conic-gradient", "repeating-conic-gradient":
            return .failure("\(name)() is not supported; write linear-gradient(…)")
        default:
            return .failure("\"\(name)\" is not a gradient function; write linear-gradient(…)")
        }
        guard s.hasSuffix(")") else { return .failure("linear-gradient( is not closed by \")\"") }
        let body = s[s.index(after: open)..<s.index(before: s.endIndex)]
        guard let parts = splitTopLevel(body, by: ",") else { return .failure("unbalanced parentheses in linear-gradient()") }
        var items = parts.map { $0.trimmingWhitespace() }
        var direction = LinearGradient.Direction.angle(180)
        if let first = items.first {
            switch parseDirection(first) {
            case let .success(d?):
                direction = d
                items.removeFirst()
            case .success(nil):
                break
            case let .failure(problem):
                return .failure(problem)
            }
        }
        var stops: [LinearGradient.Stop] = []
        for (n, item) in items.enumerated() {
            switch parseStop(item, number: n + 1) {
            case let .success(more): stops += more
            case let .failure(problem): return .failure(problem)
            }
        }
        guard stops.count >= 2 else {
            return .failure("linear-gradient() needs at least two color stops, got \(stops.count)")
        }
        return .success(LinearGradient(direction: direction, stops: stops))
    }

    /// The direction `item` names, nil when it is not a direction (so it is the first stop), or a
    /// problem when it is a malformed one.
    static func parseDirection(_ item: String) -> Result<LinearGradient.Direction?, GradientProblem> {
        let words = item.lowercased().split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }).map(String.init)
        if words.first == "to" {
            var h = 0, v = 0
            guard (2...3).contains(words.count) else {
                return .failure("\"\(item)\": after \"to\" come a side (top, right, bottom, left) or a corner (e.g. top right)")
            }
            for w in words.dropFirst() {
                switch w {
                case "left" where h == 0: h = -1
                case "right" where h == 0: h = 1
                case "top" where v == 0: v = -1
                case "bottom" where v == 0: v = 1
                default:
                    return .failure("\"\(item)\": after \"to\" come a side (top, right, bottom, left) or a corner (e.g. top right)")
                }
            }
            // A side is an angle (to top 0deg, to right 90deg, …); a corner depends on the box.
            if h == 0 { return .success(.angle(v < 0 ? 0 : 180)) }
            if v == 0 { return .success(.angle(h > 0 ? 90 : 270)) }
            return .success(.corner(horizontal: h, vertical: v))
        }
        guard words.count == 1, let w = words.first, let first = w.unicodeScalars.first,
              "+-.0123456789".unicodeScalars.contains(first) else { return .success(nil) }
        let bytes = Array(w.utf8)
        guard let tokens = CSSColor.tokens(bytes[...]), tokens.count == 1, case let .value(value) = tokens[0] else {
            return .failure("\"\(item)\" is not an angle (write e.g. 180deg, 0.5turn, 3.14rad or 200grad)")
        }
        switch value {
        case let .number(n) where n == 0:
            return .success(.angle(0))
        case let .dimension(n, unit):
            let degrees: Double
            switch unit {
            case "deg": degrees = n
            case "grad": degrees = n * 360 / 400
            case "rad": degrees = n * 180 / Double.pi
            case "turn": degrees = n * 360
            default: return .failure("\"\(item)\": the angle units are deg, grad, rad and turn")
            }
            guard degrees.isFinite, abs(degrees) < 1e12 else { return .failure("\"\(item)\" is too large an angle") }
            return .success(.angle(degrees.truncatingRemainder(dividingBy: 360)))
        case .percentage:
            return .failure("\"\(item)\": a position comes after a color; the first argument may be an angle or a side")
        default:
            return .failure("\"\(item)\" is not an angle (write e.g. 180deg; only 0 may go without a unit)")
        }
    }

    /// One stop, `color [position [position]]`: one stop, or two where two positions are given.
    static func parseStop(_ item: String, number n: Int) -> Result<[LinearGradient.Stop], GradientProblem> {
        guard !item.isEmpty else { return .failure("color stop \(n) is empty") }
        guard var words = splitTopLevel(Substring(item), by: " ")?.filter({ !$0.isEmpty }) else {
            return .failure("unbalanced parentheses in color stop \(n)")
        }
        var positions: [Double] = []
        while words.count > 1, let last = words.last, last.hasSuffix("%") {
            guard positions.count < 2 else { return .failure("color stop \(n) \"\(item)\" has more than two positions") }
            let number = last.dropLast()
            guard let p = Double(number), p.isFinite, abs(p) <= 1e6, number.first.map({ "+-.0123456789".contains($0) }) == true else {
                return .failure("color stop \(n): \"\(last)\" is not a percentage")
            }
            positions.insert(p / 100, at: 0)
            words.removeLast()
        }
        let colorText = words.joined(separator: " ")
        if words.count == 1, let c = words.first?.first, "+-.0123456789".contains(c) {
            if colorText.hasSuffix("%") {
                return .failure("color stop \(n) \"\(item)\" is a position without a color (interpolation hints are not supported)")
            }
            return .failure("color stop \(n): \"\(colorText)\" is not a color, and positions are percentages such as 40%")
        }
        guard let color = RGBA(parsing: colorText) else {
            if words.count > 1, let last = words.last, CSSColor.parse(words.dropLast().joined(separator: " ")) != nil {
                return .failure("color stop \(n): \"\(last)\" is not a position (positions are percentages such as 40%)")
            }
            let advice = RGBA.advice(for: colorText).map { " (\($0))" } ?? ""
            return .failure("color stop \(n): \"\(colorText)\" is not a color\(advice)")
        }
        if positions.isEmpty { return .success([LinearGradient.Stop(color)]) }
        return .success(positions.map { LinearGradient.Stop(color, $0) })
    }

    /// `text` split at `separator` where it is outside parentheses, or nil when they do not balance.
    static func splitTopLevel(_ text: Substring, by separator: Character) -> [String]? {
        var parts: [String] = [], current = "", depth = 0
        for ch in text {
            let isSeparator = separator == " " ? ch.isWhitespace : ch == separator
            if ch == "(" { depth += 1 }
            if ch == ")" {
                depth -= 1
                if depth < 0 { return nil }
            }
            if isSeparator && depth == 0 {
                parts.append(current)
                current = ""
            } else {
                current.append(ch)
            }
        }
        guard depth == 0 else { return nil }
        parts.append(current)
        return parts
    }
}

/// Why a text is not a gradient, in one line.
struct GradientProblem: Error, ExpressibleByStringLiteral, ExpressibleByStringInterpolation {
    var message: String
    init(stringLiteral value: String) { self.init(value) }
    /// Control characters (a line break inside the text quoted) become spaces: one line.
    init(_ message: String) {
        self.message = String(message.unicodeScalars.map { $0.isControlCharacter ? " " : Character($0) })
    }
}

extension Paint {
    /// Parses a paint: a color as CSS writes it (see `RGBA.init(parsing:)`) or a
    /// `linear-gradient(…)`; nil for anything else.
    public init?(parsing text: String) {
        if let c = RGBA(parsing: text) {
            self = .flat(c)
        } else if case let .success(g) = CSSGradient.parse(text) {
            self = .linear(g)
        } else {
            return nil
        }
    }

    /// Why `text` is not a paint, for a message; nil when there is nothing more to say.
    public static func advice(for text: String) -> String? {
        if CSSGradient.looksLikeGradient(text), case let .failure(problem) = CSSGradient.parse(text) { return problem.message }
        return RGBA.advice(for: text)
    }
}
