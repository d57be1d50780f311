import WavePlatform

/// SVG path data (`M L H V C S Q T A Z`, absolute and relative, repeated commands implied) as
/// subpaths of straight lines and cubic Béziers, in the path's own units (y grows downwards).
/// Quadratics become the cubics that trace them exactly; elliptical arcs become cubics of at most
/// a quarter turn each (within about 3e-4 of the radius).
public struct PathData: Equatable, Sendable {
    /// One piece of a subpath, from the previous piece's end point.
    public enum Segment: Equatable, Sendable {
        case line(PathPoint)
        case cubic(PathPoint, PathPoint, PathPoint)

        /// Where the piece ends.
        public var end: PathPoint {
            switch self {
            case let .line(p): return p
            case let .cubic(_, _, p): return p
            }
        }
    }

    /// A run of segments from a start point. Filling treats every subpath as closed.
    public struct Subpath: Equatable, Sendable {
        public var start: PathPoint
        public var segments: [Segment]
    }

    /// The subpaths in order.
    public var subpaths: [Subpath]

    /// The most characters a path may hold.
    public static let maximumLength = 100_000

    /// Parses `text`; a malformed path throws a `PathDataError` naming the character where it goes wrong.
    public init(parsing text: String) throws(PathDataError) {
        var parser = PathDataParser(Array(text.unicodeScalars))
        subpaths = try parser.parse()
    }

    /// Every point the path passes through or pulls towards (end points and control points): their
    /// box holds the path.
    public var controlPoints: [PathPoint] {
        subpaths.flatMap { s in
            [s.start] + s.segments.flatMap { seg -> [PathPoint] in
                switch seg {
                case let .line(p): return [p]
                case let .cubic(a, b, p): return [a, b, p]
                }
            }
        }
    }
}

/// Why path data could not be read: the 1-based character (Unicode scalar) where it went wrong.
public struct PathDataError: Error, Equatable, Sendable {
    /// 1-based position in the path string.
    public var character: Int
    public var message: String

    /// `at character 17: expected a number`.
    public var description: String { "at character \(character): \(message)" }
}

/// A recursive-descent reader of SVG path data (the SVG 2 grammar).
struct PathDataParser {
    let text: [Unicode.Scalar]
    var i = 0

    init(_ text: [Unicode.Scalar]) { self.text = text }

    func error(_ message: String, at position: Int? = nil) -> PathDataError {
        PathDataError(character: (position ?? i) + 1, message: message)
    }

    static func isSpace(_ c: Unicode.Scalar) -> Bool { c == " " || c == "\t" || c == "\n" || c == "\r" || c == "\u{0C}" }

    mutating func skipSpace() { while i < text.count, PathDataParser.isSpace(text[i]) { i += 1 } }

    /// Spaces, then at most one comma and the spaces after it; whether there was a comma.
    @discardableResult
    mutating func skipSeparator() -> Bool {
        skipSpace()
        guard i < text.count, text[i] == "," else { return false }
        i += 1
        skipSpace()
        return true
    }

    /// Whether a number may start here.
    var atNumber: Bool {
        guard i < text.count else { return false }
        let c = text[i]
        return c == "+" || c == "-" || c == "." || ("0"..."9").contains(c)
    }

    /// Describes the character at `i` for a message.
    var found: String {
        guard i < text.count else { return "the end of the path" }
        let c = text[i]
        if c.value < 0x20 || c.value == 0x7F || !c.properties.isAlphabetic && !c.isASCII {
            return "U+" + String(c.value, radix: 16, uppercase: true).leftPadded(to: 4)
        }
        return "'\(Character(c))'"
    }

    mutating func number() throws(PathDataError) -> Double {
        let start = i
        var s = ""
        if i < text.count, text[i] == "+" || text[i] == "-" { s.unicodeScalars.append(text[i]); i += 1 }
        var digits = 0
        while i < text.count, ("0"..."9").contains(text[i]) { s.unicodeScalars.append(text[i]); i += 1; digits += 1 }
        if i < text.count, text[i] == "." {
            s.unicodeScalars.append(text[i]); i += 1
            while i < text.count, ("0"..."9").contains(text[i]) { s.unicodeScalars.append(text[i]); i += 1; digits += 1 }
        }
        guard digits > 0 else {
            i = start
            throw error("expected a number, got \(found)")
        }
        if i < text.count, text[i] == "e" || text[i] == "E" {
            let mark = i
            var e = "e"
            i += 1
            if i < text.count, text[i] == "+" || text[i] == "-" { e.unicodeScalars.append(text[i]); i += 1 }
            var exponentDigits = 0
            while i < text.count, ("0"..."9").contains(text[i]) { e.unicodeScalars.append(text[i]); i += 1; exponentDigits += 1 }
            guard exponentDigits > 0 else { throw error("expected the exponent's digits after '\(Character(text[mark]))', got \(found)") }
            s += e
        }
        guard let v = Double(s), v.isFinite, abs(v) <= 1e15 else {
            throw error("the number \(s) is out of range (at most 1e15 in size)", at: start)
        }
        return v
    }

    mutating func flag() throws(PathDataError) -> Bool {
        guard i < text.count, text[i] == "0" || text[i] == "1" else { throw error("expected an arc flag (0 or 1), got \(found)") }
        defer { i += 1 }
        return text[i] == "1"
    }

    /// `count` numbers, separated by optional commas and spaces.
    mutating func numbers(_ count: Int) throws(PathDataError) -> [Double] {
        var out: [Double] = []
        for k in 0..<count {
            if k > 0 { skipSeparator() }
            out.append(try number())
        }
        return out
    }

    mutating func parse() throws(PathDataError) -> [PathData.Subpath] {
        guard text.count <= PathData.maximumLength else {
            throw error("the path is \(text.count) characters long; at most \(PathData.maximumLength)", at: PathData.maximumLength)
        }
        var subpaths: [PathData.Subpath] = []
        var current = PathPoint(0, 0), start = PathPoint(0, 0)
        // The previous segment's second control point (for S) and quadratic control (for T).
        var lastCubic: PathPoint?, lastQuad: PathPoint?
        var command: Unicode.Scalar?
        skipSpace()
        guard i < text.count else { throw error("the path is empty; expected a moveto command (M or m)") }
        while true {
            skipSpace()
            guard i < text.count else { break }
            var implicit = false
            let commandAt = i
            if let c = Optional(text[i]), "MmLlHhVvCcSsQqTtAaZz".unicodeScalars.contains(c) {
                command = c
                i += 1
                skipSpace()
            } else if atNumber, let c = command, c != "Z", c != "z" {
                implicit = true
            } else if command == nil {
                throw error("expected a moveto command (M or m), got \(found)")
            } else if atNumber {
                throw error("expected a command letter after Z, got \(found)")
            } else {
                throw error("expected a command letter or a number, got \(found)")
            }
            guard var c = command else { break }
            if subpaths.isEmpty, c != "M", c != "m" { throw error("expected a moveto command (M or m) first", at: commandAt) }
            // A moveto's further pairs are lines.
            if implicit, c == "M" { c = "L" }
            if implicit, c == "m" { c = "l" }
            let relative = c.properties.isLowercase
            let base = relative ? current : PathPoint(0, 0)
            func point(_ x: Double, _ y: Double) -> PathPoint { PathPoint(base.x + x, base.y + y) }
            var segment: PathData.Segment?
            var nextCubic: PathPoint?, nextQuad: PathPoint?
            switch c {
            case "M", "m":
                let v = try numbers(2)
                // A relative moveto starting the path is absolute; after Z it is from the start point.
                current = subpaths.isEmpty ? PathPoint(v[0], v[1]) : point(v[0], v[1])
                start = current
                subpaths.append(PathData.Subpath(start: current, segments: []))
                command = c
            case "L", "l":
                let v = try numbers(2)
                segment = .line(point(v[0], v[1]))
            case "H", "h":
                let x = try number()
                segment = .line(PathPoint(relative ? current.x + x : x, current.y))
            case "V", "v":
                let y = try number()
                segment = .line(PathPoint(current.x, relative ? current.y + y : y))
            case "C", "c":
                let v = try numbers(6)
                let b = point(v[2], v[3])
                segment = .cubic(point(v[0], v[1]), b, point(v[4], v[5]))
                nextCubic = b
            case "S", "s":
                let v = try numbers(4)
                let a = lastCubic.map { PathPoint(2 * current.x - $0.x, 2 * current.y - $0.y) } ?? current
                let b = point(v[0], v[1])
                segment = .cubic(a, b, point(v[2], v[3]))
                nextCubic = b
            case "Q", "q":
                let v = try numbers(4)
                let q = point(v[0], v[1])
                segment = PathDataParser.quadratic(current, q, point(v[2], v[3]))
                nextQuad = q
            case "T", "t":
                let v = try numbers(2)
                let q = lastQuad.map { PathPoint(2 * current.x - $0.x, 2 * current.y - $0.y) } ?? current
                segment = PathDataParser.quadratic(current, q, point(v[0], v[1]))
                nextQuad = q
            case "A", "a":
                let r = try numbers(3)
                skipSeparator()
                let large = try flag()
                skipSeparator()
                let sweep = try flag()
                skipSeparator()
                let v = try numbers(2)
                let end = point(v[0], v[1])
                for s in PathDataParser.arc(from: current, to: end, rx: r[0], ry: r[1], rotation: r[2], large: large, sweep: sweep) {
                    subpaths[subpaths.count - 1].segments.append(s)
                }
                current = end
            default: // Z, z
                if current != start { subpaths[subpaths.count - 1].segments.append(.line(start)) }
                current = start
                // A command after Z without a moveto starts a new subpath at the same point.
                subpaths.append(PathData.Subpath(start: start, segments: []))
            }
            if let segment {
                subpaths[subpaths.count - 1].segments.append(segment)
                current = segment.end
            }
            lastCubic = nextCubic
            lastQuad = nextQuad
            if skipSeparator(), !atNumber { throw error("expected a number after ',', got \(found)") }
        }
        return subpaths.filter { !$0.segments.isEmpty }
    }

    /// The cubic tracing the quadratic from `p0` with control `q` to `p1`.
    static func quadratic(_ p0: PathPoint, _ q: PathPoint, _ p1: PathPoint) -> PathData.Segment {
        .cubic(PathPoint(p0.x + 2 * (q.x - p0.x) / 3, p0.y + 2 * (q.y - p0.y) / 3),
               PathPoint(p1.x + 2 * (q.x - p1.x) / 3, p1.y + 2 * (q.y - p1.y) / 3), p1)
    }

    /// An SVG elliptical arc as cubics of at most a quarter turn each (SVG 2, appendix B.2.4 and
    /// B.2.5: radii scaled up when too small, zero radii make a line).
    static func arc(from p0: PathPoint, to p1: PathPoint, rx: Double, ry: Double, rotation: Double,
                    large: Bool, sweep: Bool) -> [PathData.Segment] {
        if p0 == p1 { return [] }
        var rx = abs(rx), ry = abs(ry)
        guard rx > 0, ry > 0 else { return [.line(p1)] }
        let phi = rotation * Double.pi / 180
        let cosPhi = cos(phi), sinPhi = sin(phi)
        let dx = (p0.x - p1.x) / 2, dy = (p0.y - p1.y) / 2
        let x1 = cosPhi * dx + sinPhi * dy, y1 = -sinPhi * dx + cosPhi * dy
        let lambda = x1 * x1 / (rx * rx) + y1 * y1 / (ry * ry)
        if lambda > 1 { rx *= lambda.squareRoot(); ry *= lambda.squareRoot() }
        let num = max(0, rx * rx * ry * ry - rx * rx * y1 * y1 - ry * ry * x1 * x1)
        let den = rx * rx * y1 * y1 + ry * ry * x1 * x1
        var k = den > 0 ? (num / den).squareRoot() : 0
        if large == sweep { k = -k }
        let cx1 = k * rx * y1 / ry, cy1 = -k * ry * x1 / rx
        let cx = cosPhi * cx1 - sinPhi * cy1 + (p0.x + p1.x) / 2
        let cy = sinPhi * cx1 + cosPhi * cy1 + (p0.y + p1.y) / 2
        func angle(_ ux: Double, _ uy: Double, _ vx: Double, _ vy: Double) -> Double {
            atan2(ux * vy - uy * vx, ux * vx + uy * vy)
        }
        let theta1 = angle(1, 0, (x1 - cx1) / rx, (y1 - cy1) / ry)
        var delta = angle((x1 - cx1) / rx, (y1 - cy1) / ry, (-x1 - cx1) / rx, (-y1 - cy1) / ry)
        if !sweep && delta > 0 { delta -= 2 * Double.pi }
        if sweep && delta < 0 { delta += 2 * Double.pi }
        let pieces = max(1, Int((abs(delta) / (Double.pi / 2) - 1e-9).rounded(.up)))
        let step = delta / Double(pieces)
        let t = 4.0 / 3 * tan(step / 4)
        func at(_ a: Double) -> (PathPoint, PathPoint) {
            // The point on the ellipse at parameter a, and its derivative.
            let ex = rx * cos(a), ey = ry * sin(a)
            let p = PathPoint(cx + cosPhi * ex - sinPhi * ey, cy + sinPhi * ex + cosPhi * ey)
            let tx = -rx * sin(a), ty = ry * cos(a)
            return (p, PathPoint(cosPhi * tx - sinPhi * ty, sinPhi * tx + cosPhi * ty))
        }
        var out: [PathData.Segment] = []
        var a = theta1
        var (p, d) = at(a)
        for k in 0..<pieces {
            let b = k == pieces - 1 ? theta1 + delta : a + step
            let (q, e) = at(b)
            let end = k == pieces - 1 ? p1 : q
            out.append(.cubic(PathPoint(p.x + t * d.x, p.y + t * d.y), PathPoint(q.x - t * e.x, q.y - t * e.y), end))
            (a, p, d) = (b, q, e)
        }
        return out
    }
}

private extension String {
    func leftPadded(to n: Int) -> String { count >= n ? self : String(repeating: "0", count: n - count) + self }
}
