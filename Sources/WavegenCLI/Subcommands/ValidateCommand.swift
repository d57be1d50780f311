import WavePlatform
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

    static func run(_ a: ParsedArguments, console: Console) throws(WaveError) {
        // As build and preview: a folder holding a wavegen.json means that manifest, and no argument ./wavegen.json.
        var references = a.positionals.map { reference -> String in
            let manifest = BuildManifest.locate(reference)
            return manifest != reference && FileSystem.exists(manifest) ? manifest : reference
        }
        if references.isEmpty {
            guard FileSystem.exists(BuildManifest.defaultFileName) else {
                throw .usage("validate needs presets or manifests, and there is no \(BuildManifest.defaultFileName) here")
            }
            references = [BuildManifest.defaultFileName]
        }
        var worst: WaveError.Kind?
        let strict = a.has("--strict")
        for reference in references {
            if Validation.isJSONSchema(reference) {
                console.err("note: \(reference): skipped: a JSON Schema document, not a preset\n")
                continue
            }
            do throws(WaveError) {
                let report: Validation.Report
                if BuildManifest.looksLikeManifest(reference) {
                    report = try Validation.validateManifest(reference, strict: strict)
                } else {
                    report = try Validation.validatePreset(reference, strict: strict)
                }
                for w in report.warnings { console.err(w + "\n") }
                if !a.has("--quiet") {
                    for font in report.fonts { console.out("\(reference): font \(font)\n") }
                    console.out("\(reference): ok\n")
                }
            } catch {
                for line in error.printedLines { console.err(line + "\n") }
                if worst != .missingInput { worst = error.kind }
            }
        }
        if let worst { throw WaveError(worst, []) }
    }
}
