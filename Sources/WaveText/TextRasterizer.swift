internal import CFreeType

/// A failure from FreeType or in laying out the text.
public struct TextError: Error, Equatable, Sendable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// Anti-aliased coverage of a line of text and of an outline around it, ready to be composited.
public struct TextMask: Equatable, Sendable {
    public var width: Int
    public var height: Int
    /// Fill coverage 0…1 per pixel, row by row.
    public var fill: [Float]
    /// Coverage of the outline ring around the glyphs (0 everywhere without a stroke).
    public var stroke: [Float]
}

/// Renders text with FreeType from a TrueType/OpenType file. Glyphs are rendered at 4× and reduced
/// with a box filter, which also lets the outline be a true disc dilation of the glyphs.
public enum TextRasterizer {
    static let oversampling = 4
    /// The largest side of a rendered text, in pixels.
    public static let maximumSide = 8192

    /// Renders `text` with an em size of `pixelSize` pixels; `strokeWidth` pixels of outline (0 for none).
    public static func render(_ text: String, fontPath: String, pixelSize: Double, strokeWidth: Double) throws(TextError) -> TextMask {
        try render(text, fonts: [.file(fontPath)], pixelSize: pixelSize, strokeWidth: strokeWidth)
    }

    /// Renders `text` with an em size of `pixelSize` pixels; `strokeWidth` pixels of outline (0 for
    /// none). Each character's glyph comes from the first of `fonts` that has one.
    public static func render(_ text: String, fonts: [FontData], pixelSize: Double, strokeWidth: Double) throws(TextError) -> TextMask {
        let k = oversampling
        let layout = try layOut(text, fonts: fonts, pixelSize: pixelSize, strokeWidth: strokeWidth) { _, _, _ in }
        guard let canvas = layout.canvas else { return TextMask(width: 0, height: 0, fill: [], stroke: []) }
        let bigW = canvas.width, bigH = canvas.height
        var big = [Float](repeating: 0, count: bigW * bigH)
        for g in layout.placed {
            for row in 0..<g.h {
                for col in 0..<g.w {
                    let i = (g.y - canvas.minY + row) * bigW + (g.x - canvas.minX + col)
                    big[i] = min(1, big[i] + Float(g.pixels[row * g.w + col]) / 255)
                }
            }
        }
        let outline = strokeWidth > 0 ? dilate(big, width: bigW, height: bigH, radius: strokeWidth * Double(k)) : []
        let w = bigW / k, h = bigH / k
        let fill = reduce(big, width: bigW, height: bigH, by: k)
        let stroke = outline.isEmpty ? [Float](repeating: 0, count: w * h) : reduce(outline, width: bigW, height: bigH, by: k)
        return TextMask(width: w, height: h, fill: fill, stroke: stroke)
    }

    /// The characters of `scalars` that the font at `fontPath` has no glyph for (FreeType maps them
    /// to glyph 0, drawn as an empty box), in the order given.
    public static func missingCharacters(_ scalars: [Unicode.Scalar], fontPath: String) throws(TextError) -> [Unicode.Scalar] {
        try missingCharacters(scalars, fonts: [.file(fontPath)])
    }

    /// The characters of `scalars` that none of `fonts` has a glyph for, in the order given. With no
    /// characters, only checks that every font opens.
    public static func missingCharacters(_ scalars: [Unicode.Scalar], fonts: [FontData]) throws(TextError) -> [Unicode.Scalar] {
        try withFaces(fonts) { faces in
            scalars.filter { s in faces.allSatisfy { FT_Get_Char_Index($0, FT_ULong(s.value)) == 0 } }
        }
    }

    /// Runs `body` with the first face of each of `fonts` open, in order.
    static func withFaces<T>(_ fonts: [FontData], _ body: ([FT_Face]) throws(TextError) -> T) throws(TextError) -> T {
        guard !fonts.isEmpty else { throw TextError("no font to draw with") }
        var library: FT_Library?
        guard FT_Init_FreeType(&library) == 0, let library else { throw TextError("FreeType could not start") }
        defer { FT_Done_FreeType(library) }
        return try withFaces(fonts[...], library: library, opened: [], body)
    }

    /// Opens the first of `fonts`, then the rest, and runs `body` with all of them open; a font in
    /// memory is read in place, so its bytes stay pinned until `body` returns.
    private static func withFaces<T>(_ fonts: ArraySlice<FontData>, library: FT_Library, opened: [FT_Face],
                                     _ body: ([FT_Face]) throws(TextError) -> T) throws(TextError) -> T {
        guard let font = fonts.first else { return try body(opened) }
        func next(_ face: FT_Face) throws(TextError) -> T {
            defer { FT_Done_Face(face) }
            return try withFaces(fonts.dropFirst(), library: library, opened: opened + [face], body)
        }
        var face: FT_Face?
        switch font {
        case let .file(path):
            let status = FT_New_Face(library, path, 0, &face)
            guard status == 0, let face else { throw TextError("\(path): \(message(status))") }
            return try next(face)
        case let .bytes(name, bytes):
            return try bytes.withUnsafeBufferPointer { (buffer) throws(TextError) -> T in
                let status = FT_New_Memory_Face(library, buffer.baseAddress, FT_Long(buffer.count), 0, &face)
                guard status == 0, let face else { throw TextError("\(name): \(message(status))") }
                return try next(face)
            }
        }
    }

    /// A glyph's bitmap placed on the baseline at the oversampled size (y up from the baseline is negative).
    struct Placed { var x: Int; var y: Int; var w: Int; var h: Int; var pixels: [UInt8] }

    /// The oversampled canvas holding every glyph with room for the outline; its sides are multiples
    /// of the oversampling, and (minX, minY) is its top-left corner in baseline coordinates.
    struct Canvas { var minX: Int; var minY: Int; var width: Int; var height: Int }

    /// Where the glyphs of `text` go: loaded hinted at the oversampled size, kerned, each handed to
    /// `glyph` with its pen position (oversampled pixels) while its outline is in the slot, then
    /// rendered. `render` and `outlines` share it, so the outlines sit exactly where the pixels are.
    /// Each character's glyph comes from the first of `fonts` that has it (the first font's empty
    /// box when none has); the index handed on is the glyph's index in its font plus the font's
    /// place in `fonts` times 2^16 (glyph indices are 16-bit), so glyphs of different fonts differ.
    /// Kerning applies between neighbours from the same font.
    static func layOut(_ text: String, fonts: [FontData], pixelSize: Double, strokeWidth: Double,
                       glyph: (_ pen: Int, _ index: UInt32, _ outline: UnsafeMutablePointer<FT_Outline>) -> Void) throws(TextError) -> (placed: [Placed], canvas: Canvas?) {
        try withFaces(fonts) { (faces) throws(TextError) in
            try layOut(text, faces: faces, names: fonts.map(\.name), pixelSize: pixelSize, strokeWidth: strokeWidth, glyph: glyph)
        }
    }

    static func layOut(_ text: String, faces: [FT_Face], names: [String], pixelSize: Double, strokeWidth: Double,
                       glyph: (_ pen: Int, _ index: UInt32, _ outline: UnsafeMutablePointer<FT_Outline>) -> Void) throws(TextError) -> (placed: [Placed], canvas: Canvas?) {
        let k = oversampling
        let size = max(1, Int((pixelSize * Double(k)).rounded()))
        for (face, name) in zip(faces, names) {
            guard FT_Set_Pixel_Sizes(face, 0, FT_UInt(size)) == 0 else { throw TextError("\(name): cannot be sized to \(pixelSize) px") }
        }

        // Lay the glyphs out on a baseline at the large size.
        var placed: [Placed] = []
        var pen = 0
        var previous: (font: Int, index: FT_UInt) = (0, 0)
        for scalar in text.unicodeScalars {
            let found = faces.indices.lazy.map { (font: $0, index: FT_Get_Char_Index(faces[$0], FT_ULong(scalar.value))) }.first { $0.index != 0 }
            let (font, index) = found ?? (0, 0)
            let face = faces[font]
            let hasKerning = (face.pointee.face_flags & FT_Long(FT_FACE_FLAG_KERNING)) != 0
            if hasKerning, previous.index != 0, previous.font == font, index != 0 {
                var delta = FT_Vector()
                if FT_Get_Kerning(face, previous.index, index, FT_UInt(FT_KERNING_DEFAULT.rawValue), &delta) == 0 { pen += Int(delta.x >> 6) }
            }
            var loaded = FT_Load_Glyph(face, index, FT_Int32(wavegen_FT_LOAD_TARGET_NORMAL))
            if loaded == 0, let slot = face.pointee.glyph {
                if slot.pointee.format == FT_GLYPH_FORMAT_OUTLINE { glyph(pen, UInt32(font) << 16 | UInt32(index), &slot.pointee.outline) }
                loaded = FT_Render_Glyph(slot, FT_RENDER_MODE_NORMAL)
            }
            guard loaded == 0, let glyph = face.pointee.glyph else { throw TextError("\(names[font]): cannot render U+\(String(scalar.value, radix: 16, uppercase: true)): \(message(loaded))") }
            let bitmap = glyph.pointee.bitmap
            var pixels: [UInt8] = []
            let w = Int(bitmap.width), h = Int(bitmap.rows)
            if w > 0, h > 0, let buffer = bitmap.buffer {
                pixels.reserveCapacity(w * h)
                for row in 0..<h {
                    let line = buffer + row * Int(bitmap.pitch)
                    for col in 0..<w { pixels.append(line[col]) }
                }
                placed.append(Placed(x: pen + Int(glyph.pointee.bitmap_left), y: -Int(glyph.pointee.bitmap_top), w: w, h: h, pixels: pixels))
            }
            pen += Int(glyph.pointee.advance.x >> 6)
            previous = (font, index)
        }
        guard !placed.isEmpty else { return (placed, nil) }

        // Big canvas with room for the outline, its size a multiple of the oversampling.
        let pad = Int((strokeWidth * Double(k)).rounded(.up)) + k
        let minX = placed.map(\.x).min()! - pad, minY = placed.map(\.y).min()! - pad
        let maxX = placed.map { $0.x + $0.w }.max()! + pad, maxY = placed.map { $0.y + $0.h }.max()! + pad
        let bigW = (maxX - minX + k - 1) / k * k, bigH = (maxY - minY + k - 1) / k * k
        guard bigW / k <= maximumSide, bigH / k <= maximumSide else {
            throw TextError("the text would be \(bigW / k)×\(bigH / k) pixels; at most \(maximumSide) on a side are drawn")
        }
        return (placed, Canvas(minX: minX, minY: minY, width: bigW, height: bigH))
    }

    /// The union of discs of `radius` around every covered point (coverage kept as the max).
    static func dilate(_ mask: [Float], width: Int, height: Int, radius: Double) -> [Float] {
        let r = Int(radius.rounded(.up))
        var offsets: [(Int, Int, Float)] = []
        for dy in -r...r {
            for dx in -r...r {
                let d = (Double(dx * dx + dy * dy)).squareRoot()
                let weight = Float(max(0, min(1, radius + 0.5 - d)))
                if weight > 0 { offsets.append((dx, dy, weight)) }
            }
        }
        var out = [Float](repeating: 0, count: mask.count)
        for y in 0..<height {
            for x in 0..<width {
                let v = mask[y * width + x]
                guard v > 0 else { continue }
                for (dx, dy, weight) in offsets {
                    let xx = x + dx, yy = y + dy
                    guard xx >= 0, yy >= 0, xx < width, yy < height else { continue }
                    let i = yy * width + xx
                    out[i] = max(out[i], v * weight)
                }
            }
        }
        return out
    }

    /// Box-filters a mask down by `k` in each direction.
    static func reduce(_ mask: [Float], width: Int, height: Int, by k: Int) -> [Float] {
        let w = width / k, h = height / k
        var out = [Float](repeating: 0, count: w * h)
        for y in 0..<h {
            for x in 0..<w {
                var sum: Float = 0
                for dy in 0..<k { for dx in 0..<k { sum += mask[(y * k + dy) * width + x * k + dx] } }
                out[y * w + x] = sum / Float(k * k)
            }
        }
        return out
    }

    static func message(_ code: FT_Error) -> String {
        switch code {
        case 1: return "cannot open resource (no such file?)"
        case 2: return "unknown file format (not a TrueType or OpenType font)"
        case 3: return "broken file"
        case 0x55: return "broken file (too short or cut off)"
        default: return FT_Error_String(code).map { String(cString: $0) } ?? "FreeType error \(code)"
        }
    }
}

extension TextRasterizer {
    /// FreeType's version ("2.12.1"), for build digests: it draws every label and outlines the
    /// vector writers' glyphs.
    public static let libraryVersion: String = {
        var library: FT_Library?
        guard FT_Init_FreeType(&library) == 0, let library else { return "unknown" }
        defer { FT_Done_FreeType(library) }
        var major: FT_Int = 0, minor: FT_Int = 0, patch: FT_Int = 0
        FT_Library_Version(library, &major, &minor, &patch)
        return "\(major).\(minor).\(patch)"
    }()
}
