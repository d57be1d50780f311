/// One problem of a `WaveError`. A problem in a document (a preset, a build manifest, an override)
/// names the file, the position and key path of the offending value, and what is wrong with it;
/// any other problem (an output that cannot be written, an encoder failure) is a message alone.
///
/// `description` and `printed` are the one place a problem becomes text. A problem in a document
/// takes the form compilers use so that editors and CI annotators can point at the line:
/// `FILE:LINE:COLUMN: error: at KEY: message`, without `at KEY: ` when there is no key path and
/// without `:LINE:COLUMN` when there is no position; any other is its message (`Error: message`
/// on stderr). The file, key path and message are shown
/// with terminal controls escaped (`TerminalText`), so a key or file name from a shared document
/// cannot act on the terminal and every problem stays one line.
public struct DocumentProblem: Equatable, Sendable, CustomStringConvertible {
    /// Whether the problem is an input that is missing or one that is present but wrong.
    public enum Kind: Sendable, Equatable {
        /// A file that is missing, not a regular file, too large or unreadable (a preset, a manifest,
        /// an `extends` target, a rider image, a font): exit 66 on the command line.
        case missingInput
        /// A value that is there but wrong (syntax, type, range, unknown key): exit 65.
        case invalid
    }

    /// The file the offending value is in, as it was named (a bundled preset's name, `--set` for the
    /// command line's overrides).
    public var file: String
    /// The 1-based line of the value in `file`, 0 when there is no position.
    public var line: Int
    /// The 1-based column of the value in `file`, 0 when there is no position.
    public var column: Int
    /// The key path of the value (`layers[2].color`, `jobs[0].output`), empty for the document itself.
    public var keyPath: String
    public var message: String
    public var kind: Kind

    public init(file: String = "", line: Int = 0, column: Int = 0, keyPath: String = "", message: String,
                kind: Kind = .invalid) {
        self.file = file
        self.line = line
        self.column = column
        self.keyPath = keyPath
        self.message = message
        self.kind = kind
    }

    /// Whether the problem is in a document: it names its file, a key path or a position (a
    /// decoder's problems get their file from the loader that knows it).
    public var isInDocument: Bool { !file.isEmpty || !keyPath.isEmpty || hasPosition }

    /// Whether the problem has a line and column.
    public var hasPosition: Bool { line > 0 && column > 0 }

    /// The problem at the position of `node` (none when the node was built in code).
    public func at(_ node: JSONNode?) -> DocumentProblem {
        var located = self
        located.line = node?.line ?? 0
        located.column = node?.column ?? 0
        return located
    }

    /// `presets/orb.json:12:20: error: at layers[2].amplitude: must be between 0 and 1, got 1.5`
    /// for a problem in a document; the message for any other.
    public var description: String {
        guard isInDocument else { return message }
        let position = hasPosition ? ":\(line):\(column)" : ""
        let key = keyPath.isEmpty ? "" : "at \(keyPath): "
        return TerminalText.escaped("\(file)\(position): error: \(key)\(message)")
    }

    /// The problem as stderr shows it: a problem in a document in the compiler form, any other as
    /// `Error: SUBJECT: message` (`subject`, the output or file it stopped, when one is given).
    public func printed(subject: String? = nil) -> String {
        isInDocument ? description : "Error: " + (subject.map { $0 + ": " } ?? "") + message
    }

    /// The problem as a warning: `child.json:2:14: warning: at extends: message`.
    public var warningDescription: String {
        let position = hasPosition ? ":\(line):\(column)" : ""
        let key = keyPath.isEmpty ? "" : "at \(keyPath): "
        return TerminalText.escaped("\(file)\(position): warning: \(key)\(message)")
    }
}
