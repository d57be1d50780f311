import WaveKit
import WaveRender

/// `wavegen validate PRESET...`
enum ValidateCommand: Subcommand {
    static let spec = CommandSpec(
        name: "validate",
        abstract: "Check presets without rendering; exit 0 only if all are valid.",
        usage: "wavegen validate <preset> ...",
        arguments: [("<preset>", "Preset files or bundled names.")],
        options: [OptionSpec(names: ["--quiet", "-q"], value: nil, help: "Print only problems.")])

    static func run(_ a: ParsedArguments, console: Console) throws(CommandError) {
        guard !a.positionals.isEmpty else { throw .usage("validate needs at least one preset") }
        var worst = ExitCode.success
        for reference in a.positionals {
            do throws(RenderError) {
                let pipeline = RenderPipeline()
                let config = try pipeline.load(reference)
                // Planned and the label's font opened too, so a file that is not a font fails here, not at render time.
                _ = try pipeline.prepare(config, plan: try pipeline.plan(config))
                if !a.has("--quiet") { console.out("\(reference): ok\n") }
            } catch {
                for line in error.lines { console.err("Error: \(line)\n") }
                if worst != .noInput { worst = error.exitCode }
            }
        }
        if worst != .success { throw CommandError(worst, []) }
    }
}
