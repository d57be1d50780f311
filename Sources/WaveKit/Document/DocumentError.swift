/// Why a document (a preset with its `extends` chain and overrides, or a build manifest) could not
/// be read: every problem found, in the order found.
public struct DocumentError: Error, Equatable, Sendable, CustomStringConvertible {
    public var problems: [DocumentProblem]

    public init(_ problems: [DocumentProblem]) {
        self.problems = problems
    }

    /// A single problem.
    public init(_ problem: DocumentProblem) {
        self.init([problem])
    }

    /// One line per problem, in the form `FILE:LINE:COLUMN: error: at KEY: message`.
    public var lines: [String] { problems.map(\.description) }

    public var description: String { lines.joined(separator: "\n") }

    /// Whether an input was missing or unreadable (as opposed to present but wrong); this decides
    /// the exit code on the command line (66 rather than 65).
    public var isMissingInput: Bool { problems.contains { $0.kind == .missingInput } }
}
