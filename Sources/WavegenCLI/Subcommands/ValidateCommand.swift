import WaveKit
import WaveRender

/// `wavegen validate PRESET-OR-MANIFEST...`
enum ValidateCommand: Subcommand {
    static let spec = CommandSpec(
        name: "validate",
        abstract: "Check presets and build manifests without rendering; exit 0 only if all are valid.",
        usage: "wavegen validate <preset-or-manifest> ...",
        arguments: [ArgumentSpec(name: "<preset-or-manifest>", help: "Preset files, bundled names, or build manifests (files with a top-level \"jobs\").",
                                 completion: .presets, repeats: true)],
        options: [OptionSpec(names: ["--quiet", "-q"], value: nil, help: "Print only problems.")],
        discussion: """
            A manifest is checked with every preset it references, each with the overrides of the
            job, variant, scale and level that use it. Problems are printed as
            FILE:LINE:COLUMN: error: at KEY: message.
            """)

    static func run(_ a: ParsedArguments, console: Console) throws(CommandError) {
        guard !a.positionals.isEmpty else { throw .usage("validate needs at least one preset or manifest") }
        var worst = ExitCode.success
        for reference in a.positionals {
            do throws(CommandError) {
                if BuildManifest.looksLikeManifest(reference) {
                    try validateManifest(reference)
                } else {
                    try validatePreset(reference)
                }
                if !a.has("--quiet") { console.out("\(reference): ok\n") }
            } catch {
                for line in error.printedLines { console.err(line + "\n") }
                if worst != .noInput { worst = error.code }
            }
        }
        if worst != .success { throw CommandError(worst, []) }
    }

    /// Loads and plans a preset, and opens its label's font, as `render` would.
    static func validatePreset(_ reference: String) throws(CommandError) {
        let config: WaveConfig
        do {
            config = try RenderPipeline().load(reference)
        } catch {
            throw error.commandError
        }
        try check(config)
    }

    /// Reads a manifest and checks every preset of its outputs with their overrides; every
    /// problem is reported once.
    static func validateManifest(_ path: String) throws(CommandError) {
        let manifest: BuildManifest
        do {
            manifest = try BuildManifest.load(path)
        } catch {
            throw CommandError(error)
        }
        let plan: BuildPlan
        do {
            plan = try BuildPlan.make(manifest, overrides: [])
        } catch {
            throw error.commandError
        }
        var failure: CommandError?
        for config in plan.configs {
            do throws(CommandError) {
                switch config.result {
                case let .failure(f): throw f.commandError
                case let .success(loaded): try check(loaded.config)
                }
            } catch {
                var merged = failure ?? CommandError(error.code, [], located: true)
                merged.lines += error.printedLines.filter { !merged.lines.contains($0) }
                if error.code == .noInput { merged.code = .noInput }
                failure = merged
            }
        }
        if let failure { throw failure }
    }

    /// Plans a loaded config's loop and opens its label's font, so that a file that is not a font
    /// fails here, not at render time.
    static func check(_ config: WaveConfig) throws(CommandError) {
        do {
            let pipeline = RenderPipeline()
            _ = try pipeline.prepare(config, plan: try pipeline.plan(config))
        } catch {
            throw error.commandError
        }
    }
}
