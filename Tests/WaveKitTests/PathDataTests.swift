import Foundation
import Testing
import WaveTestSupport
@testable import WaveKit

/// The SVG path parser: against how Chromium fills a table of paths, its errors' positions, and
/// random input (never a crash, always a parse or a `PathDataError` inside the string).
@Suite struct PathDataTests {
    /// The filled area (square pixels) and bounding box of `entry` as wavegen flattens it, placed
    /// as the table was measured: the chords' lengths integrated over columns 8 to a pixel.
    static func measure(_ entry: ChromiumPath) throws -> (area: Double, bounds: Rect) {
        let data = try PathData(parsing: entry.path)
        let v = entry.viewBox
        let path = ShapePath(data: data, viewBox: Rect(x: v[0], y: v[1], width: v[2], height: v[3]),
                             fillRule: ShapePath.FillRule(rawValue: entry.fillRule)!)
        let side = chromiumPathSide
        let box = path.fitted(in: Rect(x: 0, y: 0, width: side, height: side))
        let g = OutlineGeometry(shape: .path(path), box: box)
        let n = 8
        var area = 0.0
        for i in 0..<(Int(side) * n) {
            for c in g.chords(x: (Double(i) + 0.5) / Double(n), inset: 0) { area += c.bottom - c.top }
        }
        return (area / Double(n), g.edges.bounds)
    }

    @Test(arguments: chromiumPaths.map(\.name))
    func fillsWhatChromiumFills(name: String) throws {
        let entry = chromiumPaths.first { $0.name == name }!
        let (area, bounds) = try Self.measure(entry)
        let areaError = abs(area - entry.area) / entry.area
        #expect(areaError <= 0.005, "\(name): area \(area) px² against Chromium's \(entry.area) (\(areaError * 100) %)")
        let b = entry.bounds
        // Each side of the box within 0.5 % of the box's size along it.
        let sides = [(bounds.x, b[0], b[2]), (bounds.maxX, b[0] + b[2], b[2]), (bounds.y, b[1], b[3]), (bounds.maxY, b[1] + b[3], b[3])]
        for (ours, theirs, size) in sides {
            #expect(abs(ours - theirs) <= 0.005 * size, "\(name): box \(bounds) against Chromium's \(b)")
        }
    }

    /// The table itself can fail a wrong parser: a path read with the other fill rule, or with a
    /// relative command taken as absolute, misses Chromium's area by far more than 0.5 %.
    @Test func theTableTellsMistakesApart() throws {
        let star = chromiumPaths.first { $0.name == "star-evenodd" }!
        let asNonzero = ChromiumPath(name: "", path: star.path, viewBox: star.viewBox, fillRule: "nonzero", area: 0, bounds: [])
        #expect(abs(try Self.measure(asNonzero).area - star.area) / star.area > 0.1)
        let relative = chromiumPaths.first { $0.name == "relative-cubic" }!
        let absolute = ChromiumPath(name: "", path: relative.path.uppercased(), viewBox: relative.viewBox, fillRule: "nonzero", area: 0, bounds: [])
        let misread = try? Self.measure(absolute)
        #expect(misread.map { abs($0.area - relative.area) / relative.area > 0.1 } ?? true)
    }

    /// Malformed paths and where their error points (1-based characters) and what it says.
    static let malformed: [(String, Int, String)] = [
        ("", 1, "the path is empty"),
        ("   ", 4, "the path is empty"),
        ("L 10 10", 1, "expected a moveto command (M or m) first"),
        ("10 10", 1, "expected a moveto command (M or m), got '1'"),
        ("M 10", 5, "expected a number, got the end of the path"),
        ("M 10 10 L 20 20 X 5", 17, "expected a command letter or a number, got 'X'"),
        ("M 10 10 L 20 20 C 1 2 3 x", 25, "expected a number, got 'x'"),
        ("M 10 10 Z 5 5", 11, "expected a command letter after Z, got '5'"),
        ("M 1e 5", 5, "expected the exponent's digits after 'e', got ' '"),
        ("M 1e999 0", 3, "the number 1e999 is out of range"),
        ("M0 0 A 10 10 0 2 0 5 5", 16, "expected an arc flag (0 or 1), got '2'"),
        ("M0 0 L5,,5", 9, "expected a number, got ','"),
        ("M0 0 L5 5,", 11, "expected a number after ',', got the end of the path"),
        ("M0 0 L5 5, L 6 6", 12, "expected a number after ',', got 'L'"),
        ("M0 0 L . 5", 8, "expected a number, got '.'"),
        ("M0 0 L 5 5 \u{1}", 12, "expected a command letter or a number, got U+0001"),
        ("M0 0 H", 7, "expected a number, got the end of the path"),
        ("M0 0 L 5 5 é", 12, "got 'é'"),
    ]

    @Test(arguments: malformed.indices)
    func malformedPathsNameTheCharacter(_ i: Int) {
        let (text, character, message) = Self.malformed[i]
        #expect(throws: PathDataError.self, "\(text)") { try PathData(parsing: text) }
        do {
            _ = try PathData(parsing: text)
        } catch {
            #expect(error.character == character, "\(text): \(error.description)")
            #expect(error.description.contains(message), "\(text): \(error.description)")
            #expect(!error.description.contains("\n"))
        }
    }

    @Test func readsEveryCommandAsChromiumDoes() throws {
        // Implied repeats: after M lines, after m relative lines.
        let m = try PathData(parsing: "m10 10 5 0 0 5z")
        #expect(m.subpaths[0].segments.map(\.end) == [PathPoint(15, 10), PathPoint(15, 15), PathPoint(10, 10)])
        // Compact flags and numbers: "a1 1 0 00 10 10" has flags 0, 0 and the end (10, 10).
        let arc = try PathData(parsing: "M0 0a5 5 0 0010 0")
        #expect(arc.subpaths[0].segments.last?.end == PathPoint(10, 0))
        // S reflects the previous cubic's second control point; T the previous quadratic's control.
        let s = try PathData(parsing: "M0 0C0 10 10 10 10 0S20 -10 20 0")
        guard case let .cubic(a, _, _) = s.subpaths[0].segments[1] else { Issue.record("not a cubic"); return }
        #expect(a == PathPoint(10, -10))
        let t = try PathData(parsing: "M0 0Q5 10 10 0T20 0")
        guard case let .cubic(c1, _, _) = t.subpaths[0].segments[1] else { Issue.record("not a cubic"); return }
        #expect(abs(c1.x - (10 + 2.0 / 3 * 5)) < 1e-12 && abs(c1.y - (2.0 / 3 * -10)) < 1e-12)
    }

    /// A half-circle arc becomes two quarter cubics whose points stay on the circle within 0.03 %.
    @Test func arcsBecomeCubicsOnTheEllipse() throws {
        let data = try PathData(parsing: "M0 0A10 10 0 0 1 20 0")
        let segments = data.subpaths[0].segments
        #expect(segments.count == 2)
        var current = PathPoint(0, 0)
        for seg in segments {
            guard case let .cubic(a, b, p) = seg else { Issue.record("not a cubic"); return }
            for k in 0...16 {
                let t = Double(k) / 16, u = 1 - t
                let x = u * u * u * current.x + 3 * u * u * t * a.x + 3 * u * t * t * b.x + t * t * t * p.x
                let y = u * u * u * current.y + 3 * u * u * t * a.y + 3 * u * t * t * b.y + t * t * t * p.y
                #expect(abs(hypot(x - 10, y) - 10) < 10 * 3e-4)
            }
            current = p
        }
        // Sweep 1 from (0, 0) to (20, 0) about (10, 0) passes above (y < 0, the screen's up).
        guard case let .cubic(_, _, mid) = segments[0] else { return }
        #expect(abs(mid.x - 10) < 1e-9 && abs(mid.y + 10) < 1e-9)
    }

    /// Random strings over the path alphabet, and random mutations of good paths: each parses or
    /// throws a one-line error at a character inside the string (or just past its end).
    @Test func randomInputNeverCrashes() {
        var random = SeededGenerator(state: 36)
        let alphabet = Array("MmLlHhVvCcSsQqTtAaZz0123456789.,-+eE \n\t01x")
        let good = chromiumPaths.map(\.path)
        var parsed = 0, refused = 0
        for round in 0..<4000 {
            var text: [Character]
            if round % 2 == 0 {
                text = (0..<Int.random(in: 0...40, using: &random)).map { _ in alphabet.randomElement(using: &random)! }
            } else {
                text = Array(good.randomElement(using: &random)!)
                for _ in 0..<Int.random(in: 1...4, using: &random) {
                    let k = Int.random(in: 0...text.count, using: &random)
                    switch Int.random(in: 0..<3, using: &random) {
                    case 0: text.insert(alphabet.randomElement(using: &random)!, at: k)
                    case 1: if k < text.count { text.remove(at: k) }
                    default: if k < text.count { text[k] = alphabet.randomElement(using: &random)! }
                    }
                }
            }
            let string = String(text)
            do {
                let data = try PathData(parsing: string)
                for p in data.controlPoints { #expect(p.x.isFinite && p.y.isFinite, "\(string)") }
                parsed += 1
            } catch {
                #expect((1...(string.unicodeScalars.count + 1)).contains(error.character), "\(string): \(error.description)")
                #expect(!error.message.isEmpty && !error.description.contains("\n"))
                refused += 1
            }
        }
        #expect(parsed > 100 && refused > 100, "parsed \(parsed), refused \(refused)")
    }

    /// Mutated path data in a preset: the loader gives a config or one-line problems at
    /// `shape.path` (or another key of the shape), never a crash.
    @Test func randomPathsInAPresetGiveOneLineProblems() {
        var random = SeededGenerator(state: 17)
        let alphabet = Array("MmLlHhVvCcSsQqTtAaZz0123456789.,-+e ")
        var refused = 0
        for _ in 0..<300 {
            var text = Array(chromiumPaths.randomElement(using: &random)!.path)
            for _ in 0..<Int.random(in: 1...3, using: &random) {
                let k = Int.random(in: 0..<text.count, using: &random)
                text[k] = alphabet.randomElement(using: &random)!
            }
            let json = #"{"size": [32, 32], "shape": {"path": "\#(String(text))"}}"#
            switch decode(json) {
            case .success: break
            case let .failure(error):
                refused += 1
                for p in error.problems {
                    #expect(p.keyPath.hasPrefix("shape") || p.keyPath == "inset", "\(String(text)): \(p.keyPath)")
                    #expect(!p.message.contains("\n"))
                }
            }
        }
        #expect(refused > 10)
    }
}
