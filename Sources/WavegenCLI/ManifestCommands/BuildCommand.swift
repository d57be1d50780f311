import Foundation
import WaveKit
import WaveRender

/// `wavegen build [MANIFEST]`: renders every output a manifest lists, rewriting only the files
/// whose bytes change.
enum BuildCommand: Subcommand {
    static let spec = CommandSpec(
        name: "build",
        abstract: "Render every output of a build manifest; files whose bytes would not change are left alone.",
        usage: "wavegen build [<manifest>] [--check] [-j <n>] [--report <file>] [options]",
        arguments: [ArgumentSpec(name: "<manifest>", help: "The manifest file, or a folder holding wavegen.json (default: ./wavegen.json).",
                                 completion: .files(["json"]))],
        options: [
            OptionSpec(names: ["--check"], value: nil, help: "Render in memory and write nothing; exit 1 if an output is missing, differs or fails."),
            OptionSpec(names: ["--jobs", "-j"], value: "n",
                       help: "Render this many outputs at once, each on one thread (render's -j counts threads drawing one output).",
                       defaultText: "one per core"),
            OptionSpec(names: ["--report"], value: "file", help: "Also write a JSON report of every output to this file.", completion: .files(["json"])),
            OptionSpec(names: ["--json"], value: nil, help: "Print a JSON summary on stdout instead of one line per output."),
            OptionSpec(names: ["--quiet", "-q"], value: nil, help: "Print only problems: no output lines, summary or progress."),
        ] + PresetOptions.specs,
        discussion: """
            Each output is rendered in memory and compared with the file already there: a file whose
            bytes would not change is not rewritten (its modification time stays). The overrides
            (--set, --size, --scale, --fps, --level, --background) apply to every job, after the
            job's own. The manifest format is described in docs/manifest.md.
            """)

    /// What happened to one output.
    enum Status: String, Sendable {
        case written, unchanged
        case overBudget = "over-budget"
        case failed, missing, stale
    }

    struct Result: Sendable {
        var status: Status
        var rendered: RenderedOutput?
        /// The size of the file that was there before, when it differs (`stale`).
        var previousBytes: Int?
        /// Problem lines without the job/output prefix.
        var errors: [String] = []
        var code: ExitCode = .success
        /// The errors are document problems in the compiler form: printed as they are, once per build
        /// however many outputs they stop.
        var located = false
    }

    static func run(_ a: ParsedArguments, console: Console) throws(CommandError) {
        guard a.positionals.count <= 1 else { throw .usage("build takes one manifest, got \(a.positionals.count)") }
        let workers = try jobCount(a)
        let cli = try PresetOptions.overrides(a)
        let check = a.has("--check"), quiet = a.has("--quiet"), json = a.has("--json")
        let report = a.value("--report")
        if let report { try AtomicFile.checkWritable(report) }

        let manifestPath = BuildManifest.locate(a.positionals.first)
        let manifest: BuildManifest
        do {
            manifest = try BuildManifest.load(manifestPath)
        } catch {
            var e = error
            if a.positionals.isEmpty, e.isMissingInput { e.problems[0].message += " (name a manifest: wavegen build path/to/wavegen.json)" }
            throw CommandError(e)
        }
        try BuildPlan.checkAxisOverrides(manifest, overrides: cli)
        let plan: BuildPlan
        do {
            plan = try BuildPlan.make(manifest, overrides: cli)
        } catch {
            throw error.commandError
        }
        for w in plan.warnings { console.err("warning: \(w)\n") }

        let progress = ProgressLine(console: console, enabled: console.errIsTerminal && !quiet, total: plan.outputs.count)
        var reported = Set<String>()
        let done = OrderedWork.run(count: plan.outputs.count, workers: workers, work: { i in
            build(plan.outputs[i], plan: plan, check: check, threads: workers == 1 ? 0 : 1)
        }, started: { _, i in
            progress.show(plan.outputs[i].path)
        }, deliver: { i, result in
            let output = plan.outputs[i]
            progress.clear()
            for line in result.errors where !result.located || reported.insert(line).inserted {
                console.err(result.located ? line + "\n" : "Error: \(output.job.label): \(output.path): \(line)\n")
            }
            if !quiet, !json { console.out(textLine(output, result) + "\n") }
            progress.redraw()
        })
        progress.finish()

        let counts = Counts(done)
        let code = exitCode(done, check: check)
        if !quiet, !json { console.out(counts.summary(check: check) + "\n") }
        if check, counts.missing + counts.stale > 0 {
            console.err("Error: \(counts.missing + counts.stale) of \(done.count) outputs are missing or out of date; run 'wavegen build\(a.positionals.first.map { " " + $0 } ?? "")' to update them\n")
        }
        let summary = BuildReport.json(plan: plan, results: done, check: check, counts: counts, code: code)
        if json { console.out(summary.serialized() + "\n") }
        if let report { try AtomicFile.write(Array((summary.serialized() + "\n").utf8), to: report) }
        if code != .success { throw CommandError(code, []) }
    }

    static func jobCount(_ a: ParsedArguments) throws(CommandError) -> Int {
        guard let v = a.value("--jobs") else { return max(1, ProcessInfo.processInfo.activeProcessorCount) }
        guard let n = Int(v), n >= 1 else { throw .usage("--jobs expects a whole number ≥ 1, got '\(v)'") }
        return n
    }

    /// Renders one output and compares it with the file on disk; writes it unless `check`.
    static func build(_ output: BuildPlan.Output, plan: BuildPlan, check: Bool, threads: Int) -> Result {
        let loaded: BuildPlan.Loaded
        switch plan.configs[output.config].result {
        case let .failure(f): return Result(status: .failed, errors: f.lines, code: f.exitCode, located: f.located)
        case let .success(l): loaded = l
        }
        let rendered: RenderedOutput
        do {
            rendered = try RenderedOutput.render(loaded, format: output.format, threads: threads)
        } catch {
            return Result(status: .failed, errors: error.lines, code: error.exitCode, located: error.located)
        }
        if let budget = output.budget, rendered.bytes.count > budget {
            return Result(status: .overBudget, rendered: rendered,
                          errors: ["\(rendered.bytes.count) bytes is over the budget of \(budget) bytes (\(output.job.budget.source(for: output.format))); not written"],
                          code: .failure)
        }
        let existing: [UInt8]?
        switch readExisting(output.path) {
        case let .success(bytes): existing = bytes
        case let .failure(f): return Result(status: .failed, rendered: rendered, errors: f.lines, code: .failure)
        }
        if let existing, existing == rendered.bytes { return Result(status: .unchanged, rendered: rendered) }
        if check {
            guard let existing else {
                return Result(status: .missing, rendered: rendered, errors: ["is missing"], code: .failure)
            }
            return Result(status: .stale, rendered: rendered, previousBytes: existing.count,
                          errors: ["differs from what the manifest renders (\(existing.count) bytes on disk, \(rendered.bytes.count) rendered)"],
                          code: .failure)
        }
        let folder = (output.path as NSString).deletingLastPathComponent
        if !folder.isEmpty {
            do {
                try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            } catch {
                return Result(status: .failed, rendered: rendered, errors: ["cannot create the folder \(folder): \(error.localizedDescription)"], code: .cannotWrite)
            }
        }
        do {
            try AtomicFile.checkWritable(output.path)
            try AtomicFile.write(rendered.bytes, to: output.path)
        } catch {
            return Result(status: .failed, rendered: rendered,
                          errors: error.lines.map { $0.hasPrefix(output.path + ": ") ? String($0.dropFirst(output.path.count + 2)) : $0 },
                          code: error.code)
        }
        return Result(status: .written, rendered: rendered, previousBytes: existing?.count)
    }

    /// The bytes of the file at `path`, nil when there is none.
    static func readExisting(_ path: String) -> Swift.Result<[UInt8]?, RenderError> {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { return .success(nil) }
        if isDirectory.boolValue { return .failure(RenderError(.failure, ["cannot write: is a directory"])) }
        guard let data = FileManager.default.contents(atPath: path) else {
            return .failure(RenderError(.failure, ["cannot read the existing file to compare"]))
        }
        return .success([UInt8](data))
    }

    /// One aligned line per output: status, the rendered size, the path, then what sets it apart.
    ///
    ///     written       3.8 kB  out/loader/spinner.gif
    ///     over-budget  10.3 kB  out/loader/spinner@3x.gif  (budget 8.0 kB)
    static func textLine(_ output: BuildPlan.Output, _ r: Result) -> String {
        let status = r.status.rawValue.padding(toLength: 11, withPad: " ", startingAt: 0)
        let size = r.rendered.map { NumberText.bytes($0.bytes.count) } ?? ""
        var line = status + "  " + String(repeating: " ", count: max(0, 8 - size.count)) + size + "  " + output.path
        switch r.status {
        case .written, .unchanged, .failed:
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

    struct Counts {
        var written = 0, unchanged = 0, overBudget = 0, failed = 0, missing = 0, stale = 0
        var total = 0

        init(_ results: [Result]) {
            total = results.count
            for r in results {
                switch r.status {
                case .written: written += 1
                case .unchanged: unchanged += 1
                case .overBudget: overBudget += 1
                case .failed: failed += 1
                case .missing: missing += 1
                case .stale: stale += 1
                }
            }
        }

        /// `12 outputs: 3 written, 9 unchanged, 0 failed`; failures include outputs over budget.
        func summary(check: Bool) -> String {
            let noun = total == 1 ? "output" : "outputs"
            if check {
                return "\(total) \(noun): \(unchanged) unchanged, \(missing) missing, \(stale) stale, \(failed + overBudget) failed"
            }
            return "\(total) \(noun): \(written) written, \(unchanged) unchanged, \(failed + overBudget) failed"
        }
    }

    /// 66 or 65 when a job's preset is missing or wrong (as `render` exits), 73 when an output
    /// cannot be written, else 1 when anything
    /// failed or (with --check) is missing or stale, else 0.
    static func exitCode(_ results: [Result], check: Bool) -> ExitCode {
        let codes = Set(results.map(\.code))
        for code in [ExitCode.noInput, .dataError, .cannotWrite, .failure] where codes.contains(code) { return code }
        return .success
    }
}

/// The one-line progress display on a terminal's stderr: `[3/12] out/orb@2x.webp`, rewritten in
/// place and cleared at the end. Does nothing when disabled.
final class ProgressLine: @unchecked Sendable {
    private let console: Console
    private let enabled: Bool
    private let total: Int
    private let lock = NSLock()
    private var started = 0
    private var current: String?

    init(console: Console, enabled: Bool, total: Int) {
        self.console = console
        self.enabled = enabled
        self.total = total
    }

    static let clearLine = "\r\u{1B}[K"

    func show(_ path: String) {
        guard enabled else { return }
        lock.withLock {
            started += 1
            current = "[\(started)/\(total)] \(path)"
            console.err(ProgressLine.clearLine + current!)
        }
    }

    /// Takes the line away so that other output starts at the left margin.
    func clear() {
        guard enabled else { return }
        lock.withLock { if current != nil { console.err(ProgressLine.clearLine) } }
    }

    func redraw() {
        guard enabled else { return }
        lock.withLock { if let current { console.err(current) } }
    }

    func finish() {
        guard enabled else { return }
        lock.withLock {
            if current != nil { console.err(ProgressLine.clearLine) }
            current = nil
        }
    }
}
