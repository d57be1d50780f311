import Foundation
import WaveKit

/// `wavegen plan PRESET`: how the loop closes.
enum PlanCommand: Subcommand {
    static let spec = CommandSpec(
        name: "plan",
        abstract: "Show how a preset's loop closes: frames, duration, speeds and delays.",
        usage: "wavegen plan [<preset>] [--json] [options]",
        arguments: [("<preset>", "A preset file or bundled name (default: \(PresetOptions.defaultPreset)).")],
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
            let plan = try LoopPlanner.plan(config, strict: strict)
            for w in plan.warnings { console.err("warning: \(config.source): \(w)\n") }
            return plan
        } catch {
            throw CommandError(.dataError, ["\(config.source): \(error.description)"])
        }
    }

    static func table(_ plan: LoopPlan, config: WaveConfig) -> String {
        var lines: [String] = []
        let rule: String
        switch plan.rule {
        case .exact: rule = "the shortest loop that keeps every speed exactly"
        case .nudged: rule = "the shortest loop within speedTolerance \(FormatText.seconds(config.speedTolerance * 100)) % (no exact loop within twice as many frames)"
        case .fixedDuration: rule = "duration \(FormatText.seconds(plan.duration)) s as given; speeds rounded to whole cycles"
        case .levelOnly: rule = "no layer drifts; the level animation gets a \(FormatText.seconds(LoopPlanner.stillLoopSeconds)) s loop"
        }
        lines.append("\(config.name): \(plan.frameCount) frames at \(FormatText.seconds(plan.fps)) fps = \(FormatText.seconds(plan.duration)) s (\(rule))")
        lines.append("")
        lines.append("layer  requested → used (wavelengths/s)  cycles/loop  change")
        for (i, l) in plan.layers.enumerated() {
            let change = l.change == 0 ? "exact" : String(format: "%+.2f %%", (l.used - l.requested) / abs(l.requested) * 100)
            lines.append(String(format: "%5d  %9.4f → %-9.4f              %11d  %@", i, l.requested, l.used, l.cycles, change))
        }
        lines.append("")
        for format in OutputFormat.allCases {
            let t = plan.timing(for: format)
            lines.append("\(format.name): \(t.frameCount) frames, delays (\(t.unit)) \(pattern(t.delays))")
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
        func num(_ v: Double) -> JSONNode { JSONNode(.number(v)) }
        let layers = plan.layers.map { l in
            JSONNode(.object([("requested", num(l.requested)), ("used", num(l.used)), ("cycles", num(Double(l.cycles))), ("change", num(l.change))]))
        }
        var timings: [(key: String, value: JSONNode)] = []
        for format in OutputFormat.allCases {
            let t = plan.timing(for: format)
            timings.append((format.rawValue, JSONNode(.object([
                ("frames", num(Double(t.frameCount))), ("unit", JSONNode(.string(t.unit))),
                ("delays", JSONNode(.array(t.delays.map { num(Double($0)) }))),
                ("notes", JSONNode(.array(t.notes.map { JSONNode(.string($0)) }))),
            ]))))
        }
        let root = JSONNode(.object([
            ("name", JSONNode(.string(config.name))), ("frames", num(Double(plan.frameCount))), ("fps", num(plan.fps)),
            ("duration", num(plan.duration)), ("rule", JSONNode(.string(plan.rule.rawValue))),
            ("maximumChange", num(plan.maximumChange)), ("layers", JSONNode(.array(layers))),
            ("timing", JSONNode(.object(timings))),
            ("warnings", JSONNode(.array(plan.warnings.map { JSONNode(.string($0)) }))),
        ]))
        return root.serialized() + "\n"
    }
}
