/// The one error wavegen's stages throw, from reading a document to writing a file: what kind of
/// failure it is (which decides the command line's exit code) and every problem found, in the
/// order found.
///
/// Each problem decides its own text (`DocumentProblem.description`, `printed`): a problem in a
/// document (one that names its file or key path) in the compiler form `FILE:LINE:COLUMN: error: at KEY:
/// message`, any other as its message (`Error: message` on stderr). Nothing re-reads the text.
public struct WaveError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What went wrong, in the terms a caller acts on.
    public enum Kind: Sendable, Equatable, CaseIterable {
        /// An input is missing or unreadable (a preset, a manifest, an image, a font).
        case missingInput
        /// An input is present but wrong (syntax, values, no seamless loop, a bad font file).
        case invalidInput
        /// An output cannot be written.
        case cannotWrite
        /// An output that does not fit its size budget, however its quality knobs are turned.
        case overBudget
        /// An encoder or other unexpected failure, or a check that found something to do.
        case failure
        /// Bad command-line arguments: printed with the usage line.
        case usage
        /// Arguments that parse but contradict the input (an override of what a build job varies):
        /// an argument error printed without the usage line.
        case conflictingArguments
        /// A service cannot start (the preview server cannot listen on its port).
        case unavailable
    }

    public var kind: Kind
    public var problems: [DocumentProblem]

    public init(_ kind: Kind, problems: [DocumentProblem]) {
        self.kind = kind
        self.problems = problems
    }

    /// Problems in documents: a missing input when any problem is one, else an invalid input.
    public init(_ problems: [DocumentProblem]) {
        self.init(problems.contains { $0.kind == .missingInput } ? .missingInput : .invalidInput, problems: problems)
    }

    /// A single problem in a document.
    public init(_ problem: DocumentProblem) {
        self.init([problem])
    }

    /// Problems that belong to no document, one message each.
    public init(_ kind: Kind, _ messages: [String]) {
        self.init(kind, problems: messages.map { DocumentProblem(message: $0) })
    }

    /// Bad command-line arguments.
    public static func usage(_ message: String) -> WaveError { WaveError(.usage, [message]) }

    /// The error with each problem's message changed by `change` (a subject put before it, a
    /// circumstance after it); the files, positions and key paths stay.
    public func changingMessages(_ change: (String) -> String) -> WaveError {
        var changed = self
        for i in changed.problems.indices { changed.problems[i].message = change(changed.problems[i].message) }
        return changed
    }

    /// One line per problem as a report shows it: the compiler form for a problem in a document,
    /// the message for any other.
    public var lines: [String] { problems.map(\.description) }

    /// One line per problem as stderr shows it: `Error: message` for a problem in no document.
    public var printedLines: [String] { problems.map { $0.printed() } }

    public var description: String { lines.joined(separator: "\n") }
}
