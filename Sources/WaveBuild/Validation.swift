import WavePlatform
import WaveKit
import WaveRender

/// Checks presets and manifests without rendering (`wavegen validate`, `build --strict`): loads and
/// plans every preset and renders its label's texts, so a problem is found before anything is written.
public enum Validation {
    /// What a valid preset or manifest still reports: warnings as render prints them, and each
    /// label font as asked for and the file it resolved to ("DejaVu Sans:bold → /usr/…/DejaVuSans-Bold.ttf").
    public struct Report {
        public var warnings: [String] = []
        public var fonts: [String] = []

        public init(warnings: [String] = [], fonts: [String] = []) {
            self.warnings = warnings
            self.fonts = fonts
        }

        public mutating func add(_ other: Report) {
            for w in other.warnings where !warnings.contains(w) { warnings.append(w) }
            for f in other.fonts where !fonts.contains(f) { fonts.append(f) }
        }
    }

    /// Whether the file at `path` is a JSON Schema document: an object whose `"$schema"` names a
    /// json-schema.org meta-schema (a preset's `"$schema"` points at a schema file instead).
    public static func isJSONSchema(_ path: String) -> Bool {
        guard path.hasSuffix(".json"), let bytes = try? BoundedFile.read(path, limit: PresetLoader.maximumFileSize),
              let root = try? JSONParser.parse(bytes), case let .string(uri)? = root["$schema"]?.value else { return false }
        return uri.contains("://json-schema.org/")
    }

    /// Loads and plans a preset, and renders its label's texts, as `render` would (with `strict`,
    /// as `render --strict` would).
    @discardableResult
    public static func validatePreset(_ reference: String, strict: Bool = false) throws(WaveError) -> Report {
        let config = try RenderPipeline().load(reference)
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
    public static func validateManifest(_ path: String, strict: Bool = false) throws(WaveError) -> Report {
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
    public static func checkConfigs(_ plan: BuildPlan, strict: Bool) throws(WaveError) -> Report {
        var failure: WaveError?
        var report = Report()
        for config in plan.configs {
            do throws(WaveError) {
                switch config.result {
                case let .failure(f): throw f
                case let .success(loaded):
                    report.add(try check(loaded.config, plannerWarnings: false, strict: strict))
                }
            } catch {
                var merged = failure ?? WaveError(error.kind, problems: [])
                merged.problems += error.problems.filter { !merged.printedLines.contains($0.printed()) }
                if error.kind == .missingInput { merged.kind = .missingInput }
                failure = merged
            }
        }
        if let failure { throw failure }
        return report
    }

    /// Plans a loaded config's loop and renders its label's texts, so that a file that is not a
    /// font or a character it lacks fails here, not at render time; returns the planner's and the
    /// label's warnings as render prints them (the planner's only when `plannerWarnings`).
    public static func check(_ config: WaveConfig, plannerWarnings: Bool = true, strict: Bool = false) throws(WaveError) -> Report {
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
    }
}
