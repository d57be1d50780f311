import WaveKit

/// The JSON that `build --json` prints and `build --report FILE` writes.
enum BuildReport {
    static func json(plan: BuildPlan, results: [BuildCommand.Result], check: Bool, counts: BuildCommand.Counts, code: ExitCode) -> JSONNode {
        func num(_ v: Double) -> JSONNode { JSONNode(.number(v)) }
        func int(_ v: Int?) -> JSONNode { v.map { JSONNode(.number(Double($0))) } ?? JSONNode(.null) }
        func str(_ v: String?) -> JSONNode { v.map { JSONNode(.string($0)) } ?? JSONNode(.null) }
        func rounded(_ v: Double, _ places: Double = 1000) -> JSONNode { num((v * places).rounded() / places) }

        let outputs = zip(plan.outputs, results).map { output, r -> JSONNode in
            let x = r.rendered
            return JSONNode(.object([
                ("path", str(output.path)),
                ("job", int(output.job.index)),
                ("jobName", str(output.job.name)),
                ("preset", str(output.job.presetText)),
                ("variant", str(output.variant)),
                ("scale", output.scale.map(num) ?? JSONNode(.null)),
                ("level", output.level.map(num) ?? JSONNode(.null)),
                ("format", str(output.format.rawValue)),
                ("width", int(x?.width)),
                ("height", int(x?.height)),
                ("frames", int(x?.frames)),
                ("fps", x.map { rounded($0.fps) } ?? JSONNode(.null)),
                ("duration", x.map { rounded($0.duration) } ?? JSONNode(.null)),
                ("bytes", int(x?.bytes.count)),
                ("maxBytes", int(output.budget)),
                ("paletteSize", int(x?.paletteSize)),
                ("milliseconds", x.map { rounded($0.milliseconds, 10) } ?? JSONNode(.null)),
                ("status", str(r.status.rawValue)),
                ("errors", JSONNode(.array(r.errors.map { JSONNode(.string($0)) }))),
            ]))
        }
        return JSONNode(.object([
            ("manifest", str(plan.manifest.file)),
            ("check", JSONNode(.bool(check))),
            ("outputs", JSONNode(.array(outputs))),
            ("summary", JSONNode(.object([
                ("outputs", int(counts.total)),
                ("written", int(counts.written)),
                ("unchanged", int(counts.unchanged)),
                ("missing", int(counts.missing)),
                ("stale", int(counts.stale)),
                ("overBudget", int(counts.overBudget)),
                ("failed", int(counts.failed)),
            ]))),
            ("exitCode", int(Int(code.rawValue))),
        ]))
    }
}
