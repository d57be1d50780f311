import WavePlatform
import WaveKit
import WaveRender
import WaveBuild

/// `wavegen plan PRESET`: how the loop closes.
enum PlanCommand: Subcommand {
    static let spec = CommandSpec(
        name: "plan",
        abstract: "Show how a preset's loop closes: frames, duration, speeds and delays.",
        usage: "wavegen plan [<preset>] [--json] [options]",
        arguments: [ArgumentSpec(name: "<preset>", help: "A preset file or bundled name (default: \(PresetOptions.defaultPreset)).", completion: .presets)],
        options: [
            OptionSpec(names: ["--json"], value: nil, help: "Print the plan as JSON."),
            OptionSpec(names: ["--strict"], value: nil, help: "Fail when a fixed duration moves a speed beyond speedTolerance."),
        ] + PresetOptions.specs)

    static func run(_ a: ParsedArguments, console: Console) throws(WaveError) {
        guard a.positionals.count <= 1 else { throw .usage("plan takes one preset, got \(a.positionals.count)") }
        let config = try PresetOptions.load(a.positionals.first ?? PresetOptions.defaultPreset, a)
        let plan = try self.plan(config, strict: a.has("--strict"), console: console)
        console.out(a.has("--json") ? PlanReport.json(plan, config: config) : PlanReport.table(plan, config: config))
    }

    /// Plans the loop, printing warnings; a failure becomes exit 65 with the planner's explanation.
    static func plan(_ config: WaveConfig, strict: Bool, console: Console) throws(WaveError) -> LoopPlan {
        let plan = try RenderPipeline().plan(config, strict: strict)
        for w in plan.warnings { console.err("\(config.source): warning: \(w)\n") }
        return plan
    }
}
