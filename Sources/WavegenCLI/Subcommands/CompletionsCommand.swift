import WaveKit
import WaveBuild

/// `wavegen completions bash|zsh|fish`: the shell's completion script, generated from the specs.
enum CompletionsCommand: Subcommand {
    /// The shells a script is generated for.
    static let shells = ["bash", "zsh", "fish"]

    static let spec = CommandSpec(
        name: "completions",
        abstract: "Print the completion script for bash, zsh or fish.",
        usage: "wavegen completions <shell>",
        arguments: [ArgumentSpec(name: "<shell>", help: "bash, zsh or fish.", completion: .words(shells))],
        discussion: """
            scripts/dev/install puts them where each shell looks: share/bash-completion/completions/wavegen,
            share/zsh/site-functions/_wavegen and share/fish/vendor_completions.d/wavegen.fish.
            To try one in the running shell: source <(wavegen completions bash).
            """)

    static func run(_ a: ParsedArguments, console: Console) throws(WaveError) {
        guard a.positionals.count == 1 else { throw .usage("completions takes one shell: \(shells.joined(separator: ", "))") }
        console.out(try script(for: a.positionals[0]))
    }

    /// The script for `shell`.
    static func script(for shell: String) throws(WaveError) -> String {
        let commands = Wavegen.commandSpecs
        let presets = BundledPresets.sources.keys.sorted()
        switch shell {
        case "bash": return BashCompletion.script(commands: commands, globalOptions: Wavegen.globalOptions, presets: presets)
        case "zsh": return ZshCompletion.script(commands: commands, globalOptions: Wavegen.globalOptions, presets: presets)
        case "fish": return FishCompletion.script(commands: commands, globalOptions: Wavegen.globalOptions, presets: presets)
        default: throw .usage("unknown shell '\(shell)' (expected \(shells.joined(separator: ", ")))")
        }
    }
}
