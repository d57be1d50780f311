#if !WAVEGEN_STAMPED
/// The commit the binary was built from. `scripts/dev/build-release` writes the stamped variant
/// (`BuildStamp+Commit.swift`, not committed) and compiles with `-DWAVEGEN_STAMPED`; a plain
/// `swift build` knows no commit.
enum BuildStamp {
    /// The short commit hash, with `-dirty` when tracked files differed from it; nil when unknown.
    static let commit: String? = nil
}
#endif
