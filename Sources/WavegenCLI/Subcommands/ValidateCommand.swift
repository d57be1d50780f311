import WaveKit

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
            do {
                let config = try PresetOptions.loader.load(reference)
                _ = try LoopPlanner.plan(config)
                // The label's font is opened too, so a file that is not a font fails here, not at render time.
                _ = try AnimationEncoder.labelOverlay(config)
                if !a.has("--quiet") { console.out("\(reference): ok\n") }
            } catch let e as DocumentError {
                for line in e.lines { console.err(line + "\n") }
                if worst != .noInput { worst = e.isMissingInput ? .noInput : .dataError }
            } catch let e as PlanError {
                console.err(DocumentProblem(file: reference, message: e.description).description + "\n")
                if worst == .success { worst = .dataError }
            } catch let e as CommandError {
                for line in e.printedLines { console.err(line + "\n") }
                if worst != .noInput { worst = e.code }
            } catch {
                console.err("Error: \(reference): \(error)\n")
                worst = .failure
            }
        }
        if worst != .success { throw CommandError(worst, []) }
    }
}
