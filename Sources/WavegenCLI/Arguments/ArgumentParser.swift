import WaveKit
import WaveBuild

/// One option a subcommand accepts.
struct OptionSpec: Sendable {
    /// Spellings, long first: ["--output", "-o"].
    var names: [String]
    /// The value's placeholder (`FILE`), or nil for a flag.
    var value: String?
    var help: String
    /// Shown as "(default: …)" in help.
    var defaultText: String? = nil
    /// May be given more than once (values accumulate).
    var repeatable = false
    /// What a shell offers for the value (the completion scripts are generated from it).
    var completion: ValueCompletion = .text

    var canonical: String { names[0] }
}

/// A positional argument as help, the man page and the completion scripts describe it.
struct ArgumentSpec: Sendable {
    /// As help shows it: `<preset>`.
    var name: String
    var help: String
    /// What a shell offers at this position.
    var completion: ValueCompletion = .text
    /// May be given more than once (`<preset> ...`); only the last argument can.
    var repeats = false
}

/// What a subcommand is and accepts; drives parsing, `--help`, the man page and shell completion.
struct CommandSpec: Sendable {
    var name: String
    var abstract: String
    var usage: String
    var arguments: [ArgumentSpec] = []
    var options: [OptionSpec] = []
    var discussion: String? = nil

    static let helpOption = OptionSpec(names: ["--help", "-h"], value: nil, help: "Show help information.")
}

/// The result of parsing: positionals in order, option values by canonical name, flags given.
struct ParsedArguments: Equatable {
    var positionals: [String] = []
    var values: [String: [String]] = [:]
    var flags: Set<String> = []

    func value(_ name: String) -> String? { values[name]?.last }
    func has(_ flag: String) -> Bool { flags.contains(flag) }
}

enum ArgumentParser {
    /// Parses `args` (without the subcommand name) against `spec`. Accepts `--opt value`,
    /// `--opt=value`, `-o value`, and `--` to end options.
    static func parse(_ args: [String], spec: CommandSpec) throws(WaveError) -> ParsedArguments {
        var result = ParsedArguments()
        let options = spec.options + [CommandSpec.helpOption]
        var i = 0
        var onlyPositionals = false
        while i < args.count {
            let arg = args[i]
            i += 1
            if onlyPositionals || !arg.hasPrefix("-") || arg == "-" {
                result.positionals.append(arg)
                continue
            }
            if arg == "--" { onlyPositionals = true; continue }
            var name = arg
            var inline: String?
            if let eq = arg.firstIndex(of: "="), arg.hasPrefix("--") {
                name = String(arg[..<eq])
                inline = String(arg[arg.index(after: eq)...])
            }
            guard let option = options.first(where: { $0.names.contains(name) }) else {
                let known = options.flatMap(\.names).filter { $0.hasPrefix("--") }
                let hint = Suggest.closest(to: name, among: known).map { " (did you mean '\($0)'?)" } ?? ""
                throw .usage("unknown option '\(name)'\(hint)")
            }
            guard let placeholder = option.value else {
                if inline != nil { throw .usage("option '\(name)' takes no value") }
                result.flags.insert(option.canonical)
                continue
            }
            let value: String
            if let inline {
                value = inline
            } else {
                guard i < args.count else { throw .usage("option '\(name)' needs a value (\(placeholder))") }
                value = args[i]
                i += 1
            }
            if !option.repeatable, result.values[option.canonical] != nil {
                throw .usage("option '\(option.canonical)' given more than once")
            }
            result.values[option.canonical, default: []].append(value)
        }
        return result
    }
}

/// "Did you mean" for mistyped options, subcommands and manifest keys.
enum Suggest {
    static func closest(to word: String, among candidates: [String]) -> String? {
        KeyAdvice.closest(to: word, among: candidates) { max(2, $0.count / 3) }
    }
}

extension OptionSpec {
    /// `-o, --output <file>`: the spellings, short first, and the value's placeholder.
    var synopsis: String {
        var text = names.sorted { $0.count < $1.count }.joined(separator: ", ")
        if let value { text += " <\(value)>" }
        return text
    }

    /// The help text with its default, as `--help` and the man page show it.
    var helpWithDefault: String { defaultText.map { "\(help) (default: \($0))" } ?? help }
}
