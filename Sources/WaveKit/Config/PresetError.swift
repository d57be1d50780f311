/// One thing wrong with a preset, at a key path such as `layers[2].color`.
public struct PresetProblem: Equatable, Sendable, CustomStringConvertible {
    /// The key path, empty for the document itself.
    public var path: String
    public var message: String
    /// The file the offending value comes from, when it is not the preset named on the command
    /// line (a parent in an `extends` chain).
    public var file: String?
    /// The problem is an input that is missing or unreadable (a rider image, a font, an extends
    /// target), which makes the whole error a missing-input one (exit 66).
    public var missingInput: Bool

    public init(path: String, message: String, file: String? = nil, missingInput: Bool = false) {
        self.path = path
        self.message = message
        self.file = file
        self.missingInput = missingInput
    }

    public var description: String { path.isEmpty ? message : "at \(path): \(message)" }
}

/// Why a preset could not be turned into a `WaveConfig`.
public enum PresetError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The file is missing, not a regular file, too large or unreadable (exit 66).
    case unreadable(file: String, reason: String)
    /// The text is not JSON (exit 65).
    case syntax(file: String, line: Int, column: Int, message: String)
    /// The JSON parsed but breaks the format; every problem is listed (exit 65).
    case invalid(file: String, problems: [PresetProblem])
    /// A name that is neither a file nor a bundled preset (exit 66).
    case unknownPreset(name: String, known: [String])

    /// One line per problem, each starting with the file it belongs to.
    public var lines: [String] {
        switch self {
        case let .unreadable(file, reason): return ["\(file): \(reason)"]
        case let .syntax(file, line, column, message): return ["\(file): line \(line), column \(column): \(message)"]
        case let .invalid(file, problems): return problems.map { "\($0.file ?? file): \($0)" }
        case let .unknownPreset(name, known):
            return ["\(name): no such file and no bundled preset of that name (bundled: \(known.joined(separator: ", ")))"]
        }
    }

    public var description: String { lines.joined(separator: "\n") }

    /// Whether the input was missing or unreadable (as opposed to present but wrong).
    public var isMissingInput: Bool {
        switch self {
        case .unreadable, .unknownPreset: return true
        case .syntax: return false
        case let .invalid(_, problems): return problems.contains(where: \.missingInput)
        }
    }
}
