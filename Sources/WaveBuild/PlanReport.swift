import WavePlatform
import WaveKit

/// A loop plan described for people (`wavegen plan`, `render --verbose`) and as JSON (`plan --json`).
public enum PlanReport {
    /// "100 frames at 50 fps = 2 s (the shortest loop that keeps every speed exactly)"
    public static func summary(_ plan: LoopPlan, config: WaveConfig) -> String {
        let rule: String
        switch plan.rule {
        case .exact: rule = "the shortest loop that keeps every speed exactly"
        case .nudged: rule = "the shortest loop within speedTolerance \(NumberText.decimal(config.speedTolerance * 100, places: 3)) % (no exact loop within twice as many frames)"
        case .fixedDuration: rule = "duration \(NumberText.decimal(plan.duration, places: 3)) s as given; speeds rounded to whole cycles"
        case .levelOnly: rule = "no layer drifts; the level animation gets a \(NumberText.decimal(LoopPlanner.stillLoopSeconds, places: 3)) s loop"
        }
        return "\(NumberText.count(plan.frameCount, "frame")) at \(NumberText.decimal(plan.fps, places: 3)) fps = \(NumberText.decimal(plan.duration, places: 3)) s (\(rule))"
    }

    public static func table(_ plan: LoopPlan, config: WaveConfig) -> String {
        var lines = ["\(config.name): \(summary(plan, config: config))", ""]
        lines.append("layer  requested → used (wavelengths/s)  cycles/loop  change")
        for (i, l) in plan.layers.enumerated() {
            let percent = (l.used - l.requested) / abs(l.requested) * 100
            let change = l.change == 0 ? "exact" : (percent >= 0 ? "+" : "") + NumberText.fixed(percent, places: 2) + " %"
            lines.append(cFormat("%5ld  %9.4f → %-9.4f              %11ld  ", i, l.requested, l.used, l.cycles) + change)
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
    public static func pattern(_ delays: [Int]) -> String {
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

    public static func json(_ plan: LoopPlan, config: WaveConfig) -> String {
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
