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

    var canonical: String { names[0] }
}

/// What a subcommand is and accepts; drives both parsing and `--help`.
struct CommandSpec: Sendable {
    var name: String
    var abstract: String
    var usage: String
    var arguments: [(String, String)] = []
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
    static func parse(_ args: [String], spec: CommandSpec) throws(CommandError) -> ParsedArguments {
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

/// "Did you mean" for mistyped options and subcommands.
enum Suggest {
    static func closest(to word: String, among candidates: [String]) -> String? {
        var best: (String, Int)?
        for c in candidates {
            let d = distance(Array(word), Array(c))
            if d <= max(2, c.count / 3), best == nil || d < best!.1 { best = (c, d) }
        }
        return best?.0
    }

    private static func distance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
        var row = Array(0...b.count)
        for i in 1...a.count {
            var prev = row[0]
            row[0] = i
            for j in 1...b.count {
                let cur = row[j]
                row[j] = min(row[j] + 1, row[j - 1] + 1, prev + (a[i - 1] == b[j - 1] ? 0 : 1))
                prev = cur
            }
        }
        return row[b.count]
    }
}
