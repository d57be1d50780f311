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
