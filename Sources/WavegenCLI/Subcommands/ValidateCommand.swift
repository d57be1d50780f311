import Foundation
import WaveKit
import WaveRender
import WaveBuild

/// `wavegen validate PRESET-OR-MANIFEST...`
enum ValidateCommand: Subcommand {
    static let spec = CommandSpec(
        name: "validate",
        abstract: "Check presets and build manifests without rendering; exit 0 only if all are valid.",
        usage: "wavegen validate <preset-or-manifest> ...",
        arguments: [ArgumentSpec(name: "<preset-or-manifest>", help: "Preset files, bundled names, or build manifests (files with a top-level \"jobs\").",
                                 completion: .presets, repeats: true)],
        options: [OptionSpec(names: ["--strict"], value: nil, help: "Fail (exit 65) where render --strict would: a fixed duration that moves a speed beyond speedTolerance, or a label that does not fit. Also warn at an 'extends' that names a bundled preset without a version (\"orb\", not \"orb@1\")."),
                  OptionSpec(names: ["--quiet", "-q"], value: nil, help: "Print only problems.")],
        discussion: """
            A manifest is checked with every preset it references, each with the overrides of the
            job, variant, scale and level that use it. Problems are printed as
            FILE:LINE:COLUMN: error: at KEY: message. Each label font is printed as the
            name asked for and the file it resolved to (FILE: font DejaVu Sans:bold → /usr/…/DejaVuSans-Bold.ttf;
            FILE: font (default) → DejaVu Sans Bold (built in); FILE: font (embedded) → 5120 bytes).
            A JSON Schema document (a file whose "$schema" names json-schema.org, such as
            presets/schema.json) is skipped with a note, so 'wavegen validate presets/*.json' checks
            the presets beside it.
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
        let strict = a.has("--strict")
        for reference in references {
            if isJSONSchema(reference) {
                console.err("note: \(reference): skipped: a JSON Schema document, not a preset\n")
                continue
            }
            do throws(CommandError) {
                let report: Report
                if BuildManifest.looksLikeManifest(reference) {
                    report = try validateManifest(reference, strict: strict)
                } else {
                    report = try validatePreset(reference, strict: strict)
                }
                for w in report.warnings { console.err(w + "\n") }
                if !a.has("--quiet") {
                    for font in report.fonts { console.out("\(reference): font \(font)\n") }
                    console.out("\(reference): ok\n")
                }
            } catch {
                for line in error.printedLines { console.err(line + "\n") }
                if worst != .noInput { worst = error.code }
            }
        }
        if worst != .success { throw CommandError(worst, []) }
    }

    /// What a valid preset or manifest still reports: warnings as render prints them, and each
    /// label font as asked for and the file it resolved to ("DejaVu Sans:bold → /usr/…/DejaVuSans-Bold.ttf").
    struct Report {
        var warnings: [String] = []
        var fonts: [String] = []

        mutating func add(_ other: Report) {
            for w in other.warnings where !warnings.contains(w) { warnings.append(w) }
            for f in other.fonts where !fonts.contains(f) { fonts.append(f) }
        }
    }

    /// Whether the file at `path` is a JSON Schema document: an object whose `"$schema"` names a
    /// json-schema.org meta-schema (a preset's `"$schema"` points at a schema file instead).
    static func isJSONSchema(_ path: String) -> Bool {
        guard path.hasSuffix(".json"), let bytes = try? BoundedFile.read(path, limit: PresetLoader.maximumFileSize),
              let root = try? JSONParser.parse(bytes), case let .string(uri)? = root["$schema"]?.value else { return false }
        return uri.contains("://json-schema.org/")
    }

    /// Loads and plans a preset, and renders its label's texts, as `render` would (with `strict`,
    /// as `render --strict` would).
    @discardableResult
    static func validatePreset(_ reference: String, strict: Bool = false) throws(CommandError) -> Report {
        let config: WaveConfig
        do {
            config = try RenderPipeline().load(reference)
        } catch {
            throw error.commandError
        }
        var report = try check(config, strict: strict)
        if strict {
            // A bare bundled parent follows the bundled look of whichever wavegen renders the file.
            report.warnings += PresetLoader.standard.unpinnedExtends(reference).map(\.warningDescription)
        }
        return report
    }

    /// Reads a manifest and checks every preset of its outputs with their overrides; every
    /// problem is reported once.
    @discardableResult
    static func validateManifest(_ path: String, strict: Bool = false) throws(CommandError) -> Report {
        let manifest = try BuildManifest.loadForCommand(path)
        let plan = try BuildPlan.forCommand(manifest, overrides: [])
        // The planner's warnings once per preset and variant, as build prints them.
        var report = Report(warnings: strict ? [] : plan.warnings.map { "warning: " + $0 })
        report.add(try checkConfigs(plan, strict: strict))
        if strict {
            // Each preset file the manifest uses, once: a bare bundled parent in its chain.
            var files: [String] = []
            for config in plan.configs {
                if case let .success(loaded) = config.result, !files.contains(loaded.config.file) { files.append(loaded.config.file) }
            }
            report.add(Report(warnings: files.flatMap { PresetLoader.standard.unpinnedExtends($0).map(\.warningDescription) }))
        }
        return report
    }

    /// Checks every preset of a build plan (the planner's warnings are the plan's already); every
    /// problem is reported once.
    static func checkConfigs(_ plan: BuildPlan, strict: Bool) throws(CommandError) -> Report {
        var failure: CommandError?
        var report = Report()
        for config in plan.configs {
            do throws(CommandError) {
                switch config.result {
                case let .failure(f): throw f.commandError
                case let .success(loaded):
                    report.add(try check(loaded.config, plannerWarnings: false, strict: strict))
                }
            } catch {
                var merged = failure ?? CommandError(error.code, [], located: true)
                merged.lines += error.printedLines.filter { !merged.lines.contains($0) }
                if error.code == .noInput { merged.code = .noInput }
                failure = merged
            }
        }
        if let failure { throw failure }
        return report
    }

    /// Plans a loaded config's loop and renders its label's texts, so that a file that is not a
    /// font or a character it lacks fails here, not at render time; returns the planner's and the
    /// label's warnings as render prints them (the planner's only when `plannerWarnings`).
    static func check(_ config: WaveConfig, plannerWarnings: Bool = true, strict: Bool = false) throws(CommandError) -> Report {
        do {
            let pipeline = RenderPipeline()
            let plan = try pipeline.plan(config, strict: strict)
            let animation = try pipeline.prepare(config, plan: plan, strict: strict)
            var report = Report(warnings: ((plannerWarnings ? plan.warnings : []) + animation.warnings).map { "\(config.source): warning: \($0)" })
            if let label = config.label {
                if label.fonts.isEmpty { report.fonts.append("(default) → \(Label.defaultFont)") }
                for font in label.fonts {
                    switch font.source {
                    case let .file(path): report.fonts.append("\(font.name) → \(path)")
                    case let .embedded(bytes): report.fonts.append("(embedded) → \(bytes.count) bytes")
                    }
                }
            }
            return report
        } catch {
            throw error.commandError
        }
    }
}
