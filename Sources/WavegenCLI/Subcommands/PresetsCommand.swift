import WaveKit
import WaveRender

/// `wavegen presets` and `wavegen presets show NAME`.
enum PresetsCommand: Subcommand {
    static let spec = CommandSpec(
        name: "presets",
        abstract: "List the bundled presets, or print one's JSON with 'presets show <name>'.",
        usage: "wavegen presets [show <name>]",
        arguments: [
            ArgumentSpec(name: "show", help: "Print the JSON of the bundled preset <name>.", completion: .words(["show"])),
            ArgumentSpec(name: "<name>", help: "A bundled preset's name, as 'wavegen presets' lists them.", completion: .bundledPresets),
        ])

    static func run(_ a: ParsedArguments, console: Console) throws(CommandError) {
        let sources = BundledPresets.sources
        switch a.positionals.first {
        case nil:
            let loader = PresetLoader.standard
            for name in sources.keys.sorted() {
                let description = (try? loader.load(name).description) ?? ""
                console.out(HelpFormatter.row(name, description).dropFirst(2) + "\n")
            }
        case "show":
            guard a.positionals.count == 2 else { throw .usage("presets show needs one preset name") }
            guard let text = sources[a.positionals[1]] else {
                throw CommandError(.noInput, ["\(a.positionals[1]): " + PresetLoader.noBundled(a.positionals[1], among: Array(sources.keys))])
            }
            console.out(text.hasSuffix("\n") ? text : text + "\n")
        case let other?:
            throw .usage("unknown presets action '\(other)' (expected 'show <name>')")
        }
    }
}
