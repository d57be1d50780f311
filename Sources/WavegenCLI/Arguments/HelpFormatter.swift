/// Help text in the familiar OVERVIEW / USAGE / ARGUMENTS / OPTIONS layout.
enum HelpFormatter {
    static func help(for spec: CommandSpec) -> String {
        var lines = ["OVERVIEW: \(spec.abstract)", ""]
        if let d = spec.discussion { lines += [d, ""] }
        lines += ["USAGE: \(spec.usage)", ""]
        if !spec.arguments.isEmpty {
            lines.append("ARGUMENTS:")
            for argument in spec.arguments { lines.append(row(argument.name, argument.help)) }
            lines.append("")
        }
        lines.append("OPTIONS:")
        for o in spec.options + [CommandSpec.helpOption] { lines.append(row(o.synopsis, o.helpWithDefault)) }
        return lines.joined(separator: "\n") + "\n"
    }

    static func row(_ left: String, _ help: String) -> String {
        let pad = 26
        let l = "  " + left
        return l.count < pad ? l + String(repeating: " ", count: pad - l.count) + help : l + "\n" + String(repeating: " ", count: pad) + help
    }
}
