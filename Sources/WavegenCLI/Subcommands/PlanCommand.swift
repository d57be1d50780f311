import Foundation
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

    static func run(_ a: ParsedArguments, console: Console) throws(CommandError) {
        guard a.positionals.count <= 1 else { throw .usage("plan takes one preset, got \(a.positionals.count)") }
        let config = try PresetOptions.load(a.positionals.first ?? PresetOptions.defaultPreset, a)
        let plan = try self.plan(config, strict: a.has("--strict"), console: console)
        console.out(a.has("--json") ? json(plan, config: config) : table(plan, config: config))
    }

    /// Plans the loop, printing warnings; a failure becomes exit 65 with the planner's explanation.
    static func plan(_ config: WaveConfig, strict: Bool, console: Console) throws(CommandError) -> LoopPlan {
        do {
            let plan = try RenderPipeline().plan(config, strict: strict)
            for w in plan.warnings { console.err("\(config.source): warning: \(w)\n") }
            return plan
        } catch {
            throw error.commandError
        }
    }

    /// "100 frames at 50 fps = 2 s (the shortest loop that keeps every speed exactly)"
    static func summary(_ plan: LoopPlan, config: WaveConfig) -> String {
        let rule: String
        switch plan.rule {
        case .exact: rule = "the shortest loop that keeps every speed exactly"
        case .nudged: rule = "the shortest loop within speedTolerance \(NumberText.decimal(config.speedTolerance * 100, places: 3)) % (no exact loop within twice as many frames)"
        case .fixedDuration: rule = "duration \(NumberText.decimal(plan.duration, places: 3)) s as given; speeds rounded to whole cycles"
        case .levelOnly: rule = "no layer drifts; the level animation gets a \(NumberText.decimal(LoopPlanner.stillLoopSeconds, places: 3)) s loop"
        }
        return "\(NumberText.count(plan.frameCount, "frame")) at \(NumberText.decimal(plan.fps, places: 3)) fps = \(NumberText.decimal(plan.duration, places: 3)) s (\(rule))"
    }

    static func table(_ plan: LoopPlan, config: WaveConfig) -> String {
        var lines = ["\(config.name): \(summary(plan, config: config))", ""]
        lines.append("layer  requested → used (wavelengths/s)  cycles/loop  change")
        for (i, l) in plan.layers.enumerated() {
            let percent = (l.used - l.requested) / abs(l.requested) * 100
            let change = l.change == 0 ? "exact" : (percent >= 0 ? "+" : "") + NumberText.fixed(percent, places: 2) + " %"
            lines.append(String(format: "%5d  %9.4f → %-9.4f              %11d  %@", i, l.requested, l.used, l.cycles, change))
        }
        lines.append("")
        for format in OutputFormat.allCases {
            let t = plan.timing(for: format)
            lines.append("\(format.name): \(NumberText.count(t.frameCount, "frame")), delays (\(t.unit)) \(pattern(t.delays))")
            for n in t.notes { lines.append("  note: \(n)") }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// "2 × 100" or "3,3,4 repeating × 33, then 3" — a compact description of a delay list.
    static func pattern(_ delays: [Int]) -> String {
        guard !delays.isEmpty else { return "none" }
        for period in 1...min(8, delays.count) {
            let unit = Array(delays.prefix(period))
            let repeats = delays.count / period
            let whole = (0..<repeats * period).allSatisfy { delays[$0] == unit[$0 % period] }
            guard whole else { continue }
            let rest = Array(delays[(repeats * period)...])
            let head = period == 1 ? "\(unit[0]) × \(repeats)" : "\(unit.map(String.init).joined(separator: ",")) repeating × \(repeats)"
            return rest.isEmpty ? head : head + ", then " + rest.map(String.init).joined(separator: ",")
        }
        return delays.map(String.init).joined(separator: ",")
    }

    static func json(_ plan: LoopPlan, config: WaveConfig) -> String {
        let layers = plan.layers.map { l -> JSONNode in
            .object([("requested", .number(l.requested)), ("used", .number(l.used)), ("cycles", .int(l.cycles)), ("change", .number(l.change))])
        }
        let timings = OutputFormat.allCases.map { format -> (String, JSONNode) in
            let t = plan.timing(for: format)
            return (format.rawValue, .object([
                ("frames", .int(t.frameCount)), ("unit", .string(t.unit)),
                ("delays", .array(t.delays.map { .int($0) })),
                ("notes", .array(t.notes.map { .string($0) })),
            ]))
        }
        let root = JSONNode.object([
            ("name", .string(config.name)), ("frames", .int(plan.frameCount)), ("fps", .number(plan.fps)),
            ("duration", .number(plan.duration)), ("rule", .string(plan.rule.rawValue)),
            ("maximumChange", .number(plan.maximumChange)), ("layers", .array(layers)),
            ("timing", .object(timings)),
            ("warnings", .array(plan.warnings.map { .string($0) })),
        ])
        return root.serialized() + "\n"
    }
}
