import WavePlatform
import WaveKit
import WaveRender

/// The JSON that `build --json` prints and `build --report FILE` writes.
public enum BuildReport {
    public static func json(plan: BuildPlan, results: [BuildEngine.Result], fileResults: [BuildEngine.Result] = [], check: Bool, counts: BuildEngine.Counts, code: ExitCode, version: String) -> JSONNode {
        func rounded(_ v: Double?, _ places: Double = 1000) -> JSONNode { .number(v.map { ($0 * places).rounded() / places }) }

        let outputs = zip(plan.outputs, results).map { output, r -> JSONNode in
            let x = r.rendered
            return .object([
                ("path", .string(output.path)),
                ("job", .int(output.job.index)),
                ("jobName", .string(output.job.name)),
                ("preset", .string(output.job.presetText)),
                ("variant", .string(output.variant)),
                ("scale", .number(output.scale)),
                ("level", .number(output.level)),
                ("format", .string(output.format.rawValue)),
                ("width", .int(x?.width)),
                ("height", .int(x?.height)),
                ("frames", .int(x?.frames)),
                ("fps", rounded(x?.fps)),
                ("duration", rounded(x?.duration)),
                ("bytes", .int(r.bytes)),
                ("maxBytes", .int(output.budget)),
                ("fit", x?.fit.map { f in .object([("changes", .array(f.changes.map { .string($0) })),
                                                  ("psnr", f.psnr.isFinite ? rounded(f.psnr, 100) : .null)]) } ?? .null),
                ("paletteSize", .int(x?.paletteSize)),
                ("milliseconds", rounded(x?.milliseconds, 10)),
                ("status", .string(r.status.rawValue)),
                ("errors", .array(r.errors.map { .string($0) })),
            ])
        }
        // An asset catalog's Contents.json: computed, so nothing rendered about it.
        let files = zip(plan.files, fileResults).map { file, r -> JSONNode in
            .object([
                ("path", .string(file.path)),
                ("job", .int(file.job.index)),
                ("jobName", .string(file.job.name)),
                ("preset", .string(file.job.presetText)),
                ("format", .string("contents")),
                ("bytes", .int(r.bytes)),
                ("status", .string(r.status.rawValue)),
                ("errors", .array(r.errors.map { .string($0) })),
            ])
        }
        return .object([
            ("manifest", .string(plan.origin.file)),
            ("wavegenVersion", .string(version)),
            ("check", .bool(check)),
            ("outputs", .array(outputs + files)),
            ("summary", .object([
                ("outputs", .int(counts.total)),
                ("written", .int(counts.written)),
                ("unchanged", .int(counts.unchanged)),
                ("missing", .int(counts.missing)),
                ("stale", .int(counts.stale)),
                ("modified", .int(counts.modified)),
                ("overBudget", .int(counts.overBudget)),
                ("failed", .int(counts.failed)),
                ("orphaned", .int(counts.orphaned)),
                ("pruned", .int(counts.pruned)),
            ])),
            ("exitCode", .int(Int(code.rawValue))),
        ])
    }

    /// `written       3.8 kB  out/loader/spinner.gif`: status, size right-aligned, path.
    public static func statusLine(_ status: String, size: Int?, path: String) -> String {
        let text = size.map(NumberText.bytes) ?? ""
        return String((status + String(repeating: " ", count: max(0, 11 - status.count))).prefix(11)) + "  " + String(repeating: " ", count: max(0, 8 - text.count)) + text + "  " + path
    }

    /// One aligned line per output: status, the size, the path, then what sets it apart.
    ///
    ///     written       3.8 kB  out/loader/spinner.gif
    ///     over-budget  10.3 kB  out/loader/spinner@3x.gif  (budget 8.0 kB)
    public static func textLine(_ output: BuildPlan.Output, _ r: BuildEngine.Result) -> String {
        var line = statusLine(r.status.rawValue, size: r.bytes, path: output.path)
        switch r.status {
        case .written, .unchanged:
            if let fit = r.rendered?.fit, !fit.changes.isEmpty { line += "  (fitted: \(fit.summary), \(fit.psnrText))" }
        case .failed, .modified:
            break
        case .overBudget:
            if let budget = output.budget { line += "  (budget \(NumberText.bytes(budget)))" }
        case .missing:
            line += "  (not on disk)"
        case .stale:
            if let previous = r.previousBytes { line += "  (\(NumberText.bytes(previous)) on disk)" }
        }
        return line
    }
}
