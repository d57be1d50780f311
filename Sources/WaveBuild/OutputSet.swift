import WavePlatform
import WaveKit
import WaveRender

/// A set of outputs to make: every output of a manifest, or presets named on a command line, each
/// in a list of formats. Build, preview and the live session all plan an `OutputSet` and make its
/// outputs through `make(workers:progress:printError:work:deliver:)`, the one loop of ordered work
/// with each document problem reported once.
public struct OutputSet: Sendable {
    /// Where the outputs come from.
    public enum Source: Sendable, Equatable {
        /// A manifest file's jobs.
        case manifest(String)
        /// Presets named on the command line (files or bundled names).
        case presets([String])
    }

    public var source: Source
    /// The outputs, their paths and their loaded presets.
    public var plan: BuildPlan

    public var outputs: [BuildPlan.Output] { plan.outputs }

    /// The outputs of `manifest`'s jobs with the command line's `overrides` applied after each job's own.
    public static func manifest(_ manifest: BuildManifest, overrides: [PresetOverride], checkCollisions: Bool = true) throws(WaveError) -> OutputSet {
        OutputSet(source: .manifest(manifest.file), plan: try BuildPlan.forCommand(manifest, overrides: overrides, checkCollisions: checkCollisions))
    }

    /// Each of `presets` in each of `formats`; an output's path (`{name}.{format}`) is only a label.
    public static func presets(_ presets: [String], formats: [OutputFormat], overrides: [PresetOverride]) throws(WaveError) -> OutputSet {
        let jobs = presets.enumerated().map { BuildManifest.Job.preset($1, index: $0, formats: formats) }
        let plan = try BuildPlan.forCommand(.presets(jobs), overrides: overrides, checkCollisions: false)
        return OutputSet(source: .presets(presets), plan: plan)
    }

    /// The inputs named, or ./wavegen.json when none is (an error naming `example` when it is missing).
    public static func inputs(_ named: [String], example: String) throws(WaveError) -> [String] {
        guard named.isEmpty else { return named }
        guard FileSystem.exists(BuildManifest.defaultFileName) else {
            throw WaveError(DocumentProblem(
                file: BuildManifest.defaultFileName, message: "no such file (name a manifest or presets: \(example))", kind: .missingInput))
        }
        return [BuildManifest.defaultFileName]
    }

    /// Renders one output in memory (on `threads` threads; 0: the calling one).
    public func render(_ output: BuildPlan.Output, threads: Int) -> Result<RenderedOutput, WaveError> {
        switch plan.configs[output.config].result {
        case let .failure(f): return .failure(f)
        case let .success(loaded):
            return Result { () throws(WaveError) in
                try RenderedOutput.render(loaded, format: output.format, live: output.job.live, fitTo: output.fitLimit, threads: threads)
            }
        }
    }

    /// Makes every output of the set: `OutputSet.make` over `outputs`.
    @discardableResult
    public func make<R>(workers: Int, progress: (any OutputProgress)? = nil, printError: ((String) -> Void)? = nil,
                        problems: @escaping (R) -> WaveError? = { _ in nil },
                        work: @escaping (BuildPlan.Output) -> R, deliver: @escaping (BuildPlan.Output, R) -> Void = { _, _ in }) -> [R] {
        let outputs = plan.outputs
        return OutputSet.make(outputs, workers: workers, progress: progress, printError: printError, problems: problems,
                              work: { work(outputs[$0]) }, deliver: { deliver(outputs[$0], $1) })
    }

    /// Makes `outputs` (`work` gets an index into them) on up to `workers` threads, and hands each
    /// result to `deliver` in order as it is ready (the progress display cleared). The problems a
    /// result reports (`problems`) go first to `printError` as lines: a problem in a document (in
    /// the compiler form) once however many outputs it stops, any other naming the output's job
    /// and path. Build, preview and the live session all make their outputs here.
    @discardableResult
    public static func make<R>(_ outputs: [BuildPlan.Output], workers: Int, progress: (any OutputProgress)? = nil,
                               printError: ((String) -> Void)? = nil, problems: @escaping (R) -> WaveError? = { _ in nil },
                               work: @escaping (Int) -> R, deliver: @escaping (Int, R) -> Void = { _, _ in }) -> [R] {
        progress?.begin(total: outputs.count)
        var reported = Set<String>()
        let results = OrderedWork.run(count: outputs.count, workers: workers, work: { i -> R in
            defer { progress?.finished(outputs[i].path) }
            return work(i)
        }, started: { _, i in
            progress?.started(outputs[i].path)
        }, deliver: { i, result in
            let o = outputs[i]
            let found = problems(result)?.problems ?? []
            progress?.clear()
            for problem in found where !problem.isInDocument || reported.insert(problem.description).inserted {
                printError?(problem.printed(subject: "\(o.job.label): \(o.path)") + "\n")
            }
            deliver(i, result)
            progress?.redraw()
        })
        progress?.finish()
        return results
    }
}
