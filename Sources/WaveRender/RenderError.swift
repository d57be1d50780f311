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
    }

    public var kind: Kind
    /// One line per problem, each naming the file it belongs to.
    public var lines: [String]

    public init(_ kind: Kind, _ lines: [String]) {
        self.kind = kind
        self.lines = lines
    }

    public var description: String { lines.joined(separator: "\n") }
}

extension RenderError {
    /// A preset that could not be loaded.
    public init(_ error: PresetError) {
        self.init(error.isMissingInput ? .missingInput : .invalidInput, error.lines)
    }

    /// A loop that cannot close, for the preset read from `source`.
    public init(_ error: PlanError, source: String) {
        self.init(.invalidInput, ["\(source): \(error.description)"])
    }
}
