internal import CFreeType

/// A font to draw with: a TrueType/OpenType file on disk, or a font file's bytes held in memory
/// (the default font built into wavegen, a font embedded in a packed preset).
public enum FontData: Equatable, Sendable {
    case file(String)
    /// `name` is what messages call it.
    case bytes(name: String, [UInt8])

    /// What messages call the font: its path, or the name given with its bytes.
    public var name: String {
        switch self {
        case let .file(path): path
        case let .bytes(name, _): name
        }
    }
}

extension TextRasterizer {
    /// For each of `scalars`, the font of `fonts` that draws it (the first that has it) and its
    /// glyph id there; nil for a character none has.
    public static func glyphs(for scalars: [Unicode.Scalar], fonts: [FontData]) throws(TextError) -> [(font: Int, glyph: Int)?] {
        try withFaces(fonts) { faces in
            scalars.map { s in
                faces.indices.lazy.map { (font: $0, glyph: Int(FT_Get_Char_Index(faces[$0], FT_ULong(s.value)))) }.first { $0.glyph != 0 }
            }
        }
    }
}
