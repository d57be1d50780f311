internal import CFreeType

/// One step of a glyph outline, in pixels of the text's mask (x right, y down from the mask's
/// top-left corner).
public enum OutlineCommand: Equatable, Sendable {
    case move(x: Double, y: Double)
    case line(x: Double, y: Double)
    /// A quadratic Bézier (TrueType's curves).
    case quad(cx: Double, cy: Double, x: Double, y: Double)
    /// A cubic Bézier (CFF's curves).
    case cubic(c1x: Double, c1y: Double, c2x: Double, c2y: Double, x: Double, y: Double)
    /// Closes the current contour.
    case close
}

/// The glyph outlines of a line of text, laid out exactly as `TextRasterizer.render` lays out its
/// pixels: the same size, hinting, kerning and canvas, so a `TextMask` of the same text, placed at
/// the same point, shows these outlines filled. Filled with the nonzero rule.
public struct TextOutline: Equatable, Sendable {
    /// The size of the matching `TextMask`, in pixels.
    public var width: Int
    public var height: Int
    public var commands: [OutlineCommand]
    /// The same outlines glyph by glyph: `commands` is each glyph's outline moved by its origin.
    public var glyphs: [Glyph]

    /// One glyph of the text: the font's glyph index, where its origin (the pen on the baseline)
    /// lies in the mask's pixels, and its outline in pixels from that origin (x right, y down).
    /// Glyphs of the same index have the same outline wherever they stand, so texts sharing
    /// characters can share them.
    public struct Glyph: Equatable, Sendable {
        public var index: UInt32
        public var x: Double
        public var y: Double
        public var commands: [OutlineCommand]
    }
}

extension TextRasterizer {
    /// The outlines of `text` at an em size of `pixelSize` pixels, in the coordinates of the mask
    /// `render(text, fontPath:pixelSize:strokeWidth:)` returns.
    public static func outlines(_ text: String, fontPath: String, pixelSize: Double, strokeWidth: Double) throws(TextError) -> TextOutline {
        try outlines(text, fonts: [.file(fontPath)], pixelSize: pixelSize, strokeWidth: strokeWidth)
    }

    /// The outlines of `text` drawn with `fonts` (each character from the first that has it), in
    /// the coordinates of the mask `render(text, fonts:pixelSize:strokeWidth:)` returns.
    public static func outlines(_ text: String, fonts: [FontData], pixelSize: Double, strokeWidth: Double) throws(TextError) -> TextOutline {
        // Outline points are 26.6 fixed point at the oversampled size, y up from the baseline.
        var glyphs: [(pen: Int, index: UInt32, commands: [OutlineCommand])] = []
        let layout = try layOut(text, fonts: fonts, pixelSize: pixelSize, strokeWidth: strokeWidth) { pen, index, outline in
            glyphs.append((pen, index, decompose(outline)))
        }
        guard let canvas = layout.canvas else { return TextOutline(width: 0, height: 0, commands: [], glyphs: []) }
        let k = Double(oversampling)
        var commands: [OutlineCommand] = []
        var placed: [TextOutline.Glyph] = []
        for (pen, index, glyph) in glyphs {
            func x(_ v: Double) -> Double { (Double(pen - canvas.minX) + v / 64) / k }
            func y(_ v: Double) -> Double { (-v / 64 - Double(canvas.minY)) / k }
            commands += glyph.map { moved($0, x: x, y: y) }
            placed.append(TextOutline.Glyph(index: index, x: Double(pen - canvas.minX) / k, y: Double(-canvas.minY) / k,
                                            commands: glyph.map { moved($0, x: { $0 / 64 / k }, y: { -$0 / 64 / k }) }))
        }
        return TextOutline(width: canvas.width / oversampling, height: canvas.height / oversampling, commands: commands, glyphs: placed)
    }

    /// `c` with every point's x mapped by `x` and its y by `y`.
    static func moved(_ c: OutlineCommand, x: (Double) -> Double, y: (Double) -> Double) -> OutlineCommand {
        switch c {
        case let .move(px, py): return .move(x: x(px), y: y(py))
        case let .line(px, py): return .line(x: x(px), y: y(py))
        case let .quad(cx, cy, px, py): return .quad(cx: x(cx), cy: y(cy), x: x(px), y: y(py))
        case let .cubic(ax, ay, bx, by, px, py): return .cubic(c1x: x(ax), c1y: y(ay), c2x: x(bx), c2y: y(by), x: x(px), y: y(py))
        case .close: return .close
        }
    }

    /// The contours of a loaded glyph in FreeType's units (26.6, y up), each closed.
    static func decompose(_ outline: UnsafeMutablePointer<FT_Outline>) -> [OutlineCommand] {
        final class Sink { var commands: [OutlineCommand] = [] }
        let sink = Sink()
        var funcs = FT_Outline_Funcs()
        funcs.move_to = { to, user in
            let sink = Unmanaged<Sink>.fromOpaque(user!).takeUnretainedValue()
            if !sink.commands.isEmpty { sink.commands.append(.close) }
            sink.commands.append(.move(x: Double(to!.pointee.x), y: Double(to!.pointee.y)))
            return 0
        }
        funcs.line_to = { to, user in
            Unmanaged<Sink>.fromOpaque(user!).takeUnretainedValue().commands.append(.line(x: Double(to!.pointee.x), y: Double(to!.pointee.y)))
            return 0
        }
        funcs.conic_to = { control, to, user in
            Unmanaged<Sink>.fromOpaque(user!).takeUnretainedValue().commands.append(
                .quad(cx: Double(control!.pointee.x), cy: Double(control!.pointee.y), x: Double(to!.pointee.x), y: Double(to!.pointee.y)))
            return 0
        }
        funcs.cubic_to = { c1, c2, to, user in
            Unmanaged<Sink>.fromOpaque(user!).takeUnretainedValue().commands.append(
                .cubic(c1x: Double(c1!.pointee.x), c1y: Double(c1!.pointee.y), c2x: Double(c2!.pointee.x), c2y: Double(c2!.pointee.y),
                       x: Double(to!.pointee.x), y: Double(to!.pointee.y)))
            return 0
        }
        let user = Unmanaged.passUnretained(sink).toOpaque()
        _ = withExtendedLifetime(sink) { FT_Outline_Decompose(outline, &funcs, user) }
        if !sink.commands.isEmpty { sink.commands.append(.close) }
        return sink.commands
    }
}
