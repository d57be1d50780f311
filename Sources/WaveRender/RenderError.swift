import WaveKit

/// Why a stage of the pipeline failed, with the lines to show and what kind of failure it is, so
/// a command line can choose its exit status and a build can report it per output.
public struct RenderError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong, in the terms a caller acts on.
    public enum Kind: Sendable, Equatable {
        /// An input is missing or unreadable (a preset, an image, a font).
        case missingInput
        /// An input is present but wrong (syntax, values, no seamless loop, a bad font file).
        case invalidInput
        /// An output cannot be written.
        case cannotWrite
        /// An encoder or other unexpected failure.
        case failure
        /// An output that does not fit its size budget, however its quality knobs are turned.
        case overBudget
    }

    public var kind: Kind
    /// One line per problem, each naming the file it belongs to.
    public var lines: [String]
    /// The lines are document problems in the compiler form (`FILE:LINE:COLUMN: error: …`),
    /// meant to be printed as they are.
    public var located: Bool

    public init(_ kind: Kind, _ lines: [String], located: Bool = false) {
        self.kind = kind
        self.lines = lines
        self.located = located
    }

    public var description: String { lines.joined(separator: "\n") }
}

extension RenderError {
    /// A preset's or manifest's problems.
    public init(_ error: DocumentError) {
        self.init(error.isMissingInput ? .missingInput : .invalidInput, error.lines, located: true)
    }

    /// A problem with a loaded preset as a whole (its loop, its font), reported against its file.
    public init(_ config: WaveConfig, _ message: String, keyPath: String = "", kind: DocumentProblem.Kind = .invalid) {
        self.init(DocumentError(DocumentProblem(file: config.source, keyPath: keyPath, message: message, kind: kind)))
    }
}
