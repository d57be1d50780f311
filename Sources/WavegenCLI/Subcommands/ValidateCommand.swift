import Foundation
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
        // As build and preview: a folder holding a wavegen.json means that manifest, and no argument ./wavegen.json.
        var references = a.positionals.map { reference -> String in
            let manifest = BuildManifest.locate(reference)
            return manifest != reference && FileManager.default.fileExists(atPath: manifest) ? manifest : reference
        }
        if references.isEmpty {
            guard FileManager.default.fileExists(atPath: BuildManifest.defaultFileName) else {
                throw .usage("validate needs presets or manifests, and there is no \(BuildManifest.defaultFileName) here")
            }
            references = [BuildManifest.defaultFileName]
        }
        var worst = ExitCode.success
        for reference in references {
            do throws(CommandError) {
                let warnings: [String]
                if BuildManifest.looksLikeManifest(reference) {
                    warnings = try validateManifest(reference)
                } else {
                    warnings = try validatePreset(reference)
                }
                for w in warnings { console.err(w + "\n") }
                if !a.has("--quiet") { console.out("\(reference): ok\n") }
            } catch {
                for line in error.printedLines { console.err(line + "\n") }
                if worst != .noInput { worst = error.code }
            }
        }
        if worst != .success { throw CommandError(worst, []) }
    }

    /// Loads and plans a preset, and opens its label's font, as `render` would.
    @discardableResult
    static func validatePreset(_ reference: String) throws(CommandError) -> [String] {
        let config: WaveConfig
        do {
            config = try RenderPipeline().load(reference)
        } catch {
            throw error.commandError
        }
        return try check(config)
    }

    /// Reads a manifest and checks every preset of its outputs with their overrides; every
    /// problem is reported once.
    @discardableResult
    static func validateManifest(_ path: String) throws(CommandError) -> [String] {
        let manifest: BuildManifest
        do {
            manifest = try BuildManifest.load(path)
        } catch {
            throw CommandError(error)
        }
        let plan = try BuildPlan.forCommand(manifest, overrides: [])
        var failure: CommandError?
        // The planner's warnings once per preset and variant, as build prints them.
        let warnings = plan.warnings.map { "warning: " + $0 }
        for config in plan.configs {
            do throws(CommandError) {
                switch config.result {
                case let .failure(f): throw f.commandError
                case let .success(loaded): _ = try check(loaded.config)
                }
            } catch {
                var merged = failure ?? CommandError(error.code, [], located: true)
                merged.lines += error.printedLines.filter { !merged.lines.contains($0) }
                if error.code == .noInput { merged.code = .noInput }
                failure = merged
            }
        }
        if let failure { throw failure }
        return warnings
    }

    /// Plans a loaded config's loop and opens its label's font, so that a file that is not a font
    /// fails here, not at render time.
    /// Plans and prepares a config; returns the planner's warnings as render prints them.
    static func check(_ config: WaveConfig) throws(CommandError) -> [String] {
        do {
            let pipeline = RenderPipeline()
            let plan = try pipeline.plan(config)
            _ = try pipeline.prepare(config, plan: plan)
            return plan.warnings.map { "\(config.source): warning: \($0)" }
        } catch {
            throw error.commandError
        }
    }
}
