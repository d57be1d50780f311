import WaveBuild
import WaveKit
/// `wavegen manpage`: the manual page (`wavegen.1`), generated from the specs that print `--help`.
enum ManPageCommand: Subcommand {
    static let spec = CommandSpec(
        name: "manpage",
        abstract: "Print the manual page (wavegen.1) in roff.",
        usage: "wavegen manpage",
        discussion: "scripts/dev/install writes it to share/man/man1/wavegen.1; to read it here: wavegen manpage | man -l -")

    static func run(_ a: ParsedArguments, console: Console) throws(WaveError) {
        guard a.positionals.isEmpty else { throw .usage("manpage takes no arguments") }
        console.out(ManPage.page(commands: Wavegen.commandSpecs, globalOptions: Wavegen.globalOptions, version: Wavegen.versionDescription))
    }
}
