import Foundation
import WaveGIF
import WaveKit

/// The command line of the benchmark.
struct Options {
    var runs = 5
    var scenes: [String]?
    var formats: [OutputFormat] = [.gif, .webp]
    var threads = 0
    var json = false
    var memory = true
    var img2webp = true
    var cli = true
    var verbose = true

    static let usage = """
        usage: wavegen-bench [--runs N] [--scenes a,b,…] [--formats gif,webp,apng] [--threads N]
                             [--no-memory] [--no-img2webp] [--no-cli] [--json] [--quiet]

        Times the render pipeline per stage for the bundled presets, a large case (800×200, 100 frames,
        three layers) and a big one (512×512 @2x = 1024×1024, 300 frames); compares GIF against the
        giflib encoder floor and WebP against img2webp on the same frames, measured in the same run;
        and measures peak RSS of the big scene at 30 and 300 frames in child processes.
        Build it in release mode: swift build -c release --product wavegen-bench

          --runs N        timed runs per case; medians are reported (default 5)
          --scenes LIST   only these scenes (names from the bundled presets, large, big)
          --formats LIST  any of gif, webp, apng, svg (default gif,webp)
          --threads N     threads of the whole-pipeline run (default 0 = one per core, as wavegen)
          --no-memory     skip the child processes that measure peak RSS
          --no-img2webp   skip the img2webp comparison
          --no-cli        skip timing the wavegen executable beside this one (`wavegen render`)
          --json          print the numbers as JSON instead of tables
          --quiet         no progress on stderr
        """

    static func parse(_ args: [String]) throws -> Options {
        var o = Options()
        var a = ArgumentCursor(args)
        while let arg = a.next() {
            switch arg {
            case "--runs": o.runs = try a.count(atLeast: 1)
            case "--scenes": o.scenes = try a.value().split(separator: ",").map(String.init)
            case "--formats":
                o.formats = try a.value().split(separator: ",").map { s throws -> OutputFormat in
                    guard let f = OutputFormat(rawValue: String(s)) else { throw BenchError("unknown format '\(s)'") }
                    return f
                }
            case "--threads": o.threads = try a.count(atLeast: 0)
            case "--json": o.json = true
            case "--no-memory": o.memory = false
            case "--no-img2webp": o.img2webp = false
            case "--no-cli": o.cli = false
            case "--quiet", "-q": o.verbose = false
            case "--help", "-h":
                print(usage)
                exit(0)
            default: throw BenchError("unknown argument '\(arg)'\n\(usage)")
            }
        }
        return o
    }
}

/// Walks a command line: each argument in turn, and the value after an option.
struct ArgumentCursor {
    private let args: [String]
    private var i = -1

    init(_ args: [String]) { self.args = args }

    /// The next argument, or nil after the last.
    mutating func next() -> String? {
        i += 1
        return i < args.count ? args[i] : nil
    }

    /// The value after the current option.
    mutating func value() throws -> String {
        guard i + 1 < args.count else { throw BenchError("\(args[i]) needs a value") }
        i += 1
        return args[i]
    }

    /// The value after the current option as a whole number ≥ `minimum`.
    mutating func count(atLeast minimum: Int) throws -> Int {
        let option = args[i]
        guard let n = Int(try value()), n >= minimum else { throw BenchError("\(option) expects a whole number ≥ \(minimum)") }
        return n
    }
}

/// Everything measured for one scene in one format.
struct Measurement {
    var scene: String
    var format: OutputFormat
    var width = 0
    var height = 0
    var frames = 0
    var bytes = 0
    var load = Samples()
    var plan = Samples()
    var setup = Samples()
    var render = Samples()
    var encode = Samples()
    /// CPU time of the encode stage (all threads).
    var encodeCPU = Samples()
    var expand = Samples()
    /// The whole pipeline as `wavegen render` runs it (parallel rendering), short of writing the file.
    var total = Samples()
    /// GIF: giflib's floor on the same frames.
    var floor = Samples()
    var floorBytes: Int?
    /// WebP: img2webp on the same frames.
    var img2webp = Samples()
    var img2webpBytes: Int?
    var img2webpNote: String?
    var peakRSSKiB: Int?
    /// `wavegen render` as a process (start-up and writing the file included), when it sits beside this executable.
    var cli = Samples()
    /// The size of the file `wavegen render` wrote: a check that this pipeline is the command's.
    var cliBytes: Int?

    var pixels: Double { Double(width * height) }
    /// One thread, stage by stage.
    var serial: Double { load.median + plan.median + setup.median + render.median + encode.median }
}

/// Peak RSS of the same scene at two frame counts.
struct MemoryRow {
    var who: String
    var format: OutputFormat
    var rss30: Int?
    var rss300: Int?
    var ratio: Double? {
        guard let a = rss30, let b = rss300, a > 0 else { return nil }
        return Double(b) / Double(a)
    }
}

final class Bench {
    let options: Options
    let files: SceneFiles
    let pipelineThreads: Int

    init(options: Options) throws {
        self.options = options
        files = try SceneFiles()
        pipelineThreads = options.threads > 0 ? options.threads : ProcessInfo.processInfo.activeProcessorCount
    }

    func log(_ s: String) {
        if options.verbose { FileHandle.standardError.write(Data((s + "\n").utf8)) }
    }

    func measure(_ scene: Scene, _ format: OutputFormat) throws -> Measurement {
        let ref = try files.reference(for: scene)
        var m = Measurement(scene: scene.name, format: format)
        log("\(scene.name) \(format.rawValue): warming up")
        // An untimed pass first: page faults, caches, and the frames img2webp gets.
        do {
            let warm = try Pipeline.staged(ref, format: format)
            m.width = warm.renderer.config.width
            m.height = warm.renderer.config.height
            m.frames = warm.renderer.timing.frameCount
            m.bytes = warm.bytes.count
            if format == .webp, options.img2webp { try prepareImg2webp(&m, warm.frames, warm.renderer) }
        }
        let img2webpArgs = m.img2webpNote == nil && format == .webp && options.img2webp ? img2webpArguments : nil
        var cliArgs: [String]?
        if options.cli, let cli = cliPath {
            let out = try files.scratch("cli-\(scene.name)") + "/out." + format.rawValue
            cliArgs = [cli, "render", ref, "-o", out, "-q"]
            let r = try Processes.run(cliArgs!)
            guard r.status == 0 else { throw BenchError("wavegen render \(ref) failed (\(r.status)): \(r.stderr)") }
            m.cliBytes = (try? FileManager.default.attributesOfItem(atPath: out)[.size] as? Int) ?? nil
        }
        defer {
            try? FileManager.default.removeItem(atPath: files.directory + "/pam-\(scene.name)")
            try? FileManager.default.removeItem(atPath: files.directory + "/cli-\(scene.name)")
        }
        for run in 0..<options.runs {
            log("\(scene.name) \(format.rawValue): run \(run + 1)/\(options.runs)")
            // Alternate the order so drifting machine load falls on every measurement alike.
            let totalFirst = run % 2 == 1
            if totalFirst { try timeTotal(ref, format, &m) }
            let staged = try Pipeline.staged(ref, format: format)
            m.load.add(staged.times.load)
            m.plan.add(staged.times.plan)
            m.setup.add(staged.times.setup)
            m.render.add(staged.times.render)
            m.encode.add(staged.times.encode)
            m.encodeCPU.add(staged.times.encodeCPU)
            m.expand.add(staged.times.expand)
            guard staged.bytes.count == m.bytes else { throw BenchError("\(scene.name): output differs between runs") }
            if format == .gif {
                let t0 = now()
                let palette = staged.renderer.palette
                let size = try PlainGIFEncoder.encode(frames: staged.frames, width: m.width, height: m.height,
                                                      colors: palette.colors.map { RGBA8($0.r, $0.g, $0.b, $0.a) },
                                                      transparentIndex: palette.transparentIndex,
                                                      delays: staged.renderer.timing.delays).count
                m.floor.add(now() - t0)
                m.floorBytes = size
            }
            if let args = img2webpArgs {
                let r = try Processes.run(args)
                guard r.status == 0 else { throw BenchError("img2webp failed (\(r.status)): \(r.stderr)") }
                m.img2webp.add(r.seconds)
            }
            if !totalFirst { try timeTotal(ref, format, &m) }
            if let args = cliArgs {
                let r = try Processes.run(args)
                guard r.status == 0 else { throw BenchError("wavegen render \(ref) failed (\(r.status)): \(r.stderr)") }
                m.cli.add(r.seconds)
            }
        }
        if let args = img2webpArgs, let out = args.last {
            m.img2webpBytes = (try? FileManager.default.attributesOfItem(atPath: out)[.size] as? Int) ?? nil
        }
        if options.memory {
            log("\(scene.name) \(format.rawValue): peak memory (child process)")
            m.peakRSSKiB = try childRSS(ref, format)
        }
        return m
    }

    private func timeTotal(_ ref: String, _ format: OutputFormat, _ m: inout Measurement) throws {
        let t0 = now()
        let bytes = try Pipeline.full(ref, format: format, threads: options.threads)
        m.total.add(now() - t0)
        guard bytes.count == m.bytes else {
            throw BenchError("\(m.scene): the threaded pipeline wrote \(bytes.count) bytes, the staged one \(m.bytes)")
        }
    }

    private var img2webpArguments: [String] = []

    /// Writes the frames as PAM and builds the img2webp command with wavegen's WebP settings.
    private func prepareImg2webp(_ m: inout Measurement, _ frames: [[UInt8]], _ renderer: FrameRenderer) throws {
        guard let tool = Processes.which("img2webp") else {
            m.img2webpNote = "img2webp not found (Debian package webp): skipped"
            return
        }
        let dir = try files.scratch("pam-\(m.scene)")
        let webp = renderer.config.webp
        var args = [tool, "-loop", String(renderer.config.loops), webp.lossless ? "-lossless" : "-lossy",
                    "-q", String(webp.quality), "-m", String(webp.effort)]
        var rgba: [UInt8] = []
        for (k, f) in frames.enumerated() {
            renderer.palette.expand(f, into: &rgba)
            let path = dir + "/frame-" + NumberText.padded(k, digits: 4) + ".pam"
            try PAMWriter.write(rgba, width: m.width, height: m.height, to: path)
            args += ["-d", String(renderer.timing.delays[k]), path]
        }
        args += ["-o", dir + "/img2webp.webp"]
        img2webpArguments = args
    }

    /// Peak RSS of one whole render of `ref` in a child process of this executable. The child reads its
    /// own VmHWM: ru_maxrss from wait4 is no use here, because a child started by posix_spawn (vfork)
    /// carries this process's high-water mark across exec.
    func childRSS(_ ref: String, _ format: OutputFormat) throws -> Int {
        try childRSS(["--child", ref, format.rawValue, String(options.threads)])
    }

    private func childRSS(_ arguments: [String]) throws -> Int {
        let report = try files.scratch("rss") + "/peak"
        let r = try Processes.run([Processes.selfPath] + arguments + [report])
        guard r.status == 0 else { throw BenchError("child \(arguments.joined(separator: " ")) failed (\(r.status)): \(r.stderr)") }
        guard let text = try? String(contentsOfFile: report, encoding: .utf8), let kib = Int(text.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw BenchError("child \(arguments.joined(separator: " ")) reported no peak RSS")
        }
        return kib
    }

    /// The `wavegen` executable built beside this one, if any.
    var cliPath: String? {
        let cli = PathText.joined(PathText.folder(of: Processes.selfPath), "wavegen")
        return FileManager.default.isExecutableFile(atPath: cli) ? cli : nil
    }

    /// Peak RSS of `wavegen render` itself, when the CLI sits beside this executable, measured by GNU
    /// time (a small process whose fork does not carry this one's high-water mark).
    func cliRSS(_ ref: String, _ format: OutputFormat) throws -> Int? {
        guard options.cli, let cli = cliPath, FileManager.default.isExecutableFile(atPath: "/usr/bin/time") else { return nil }
        let dir = try files.scratch("cli")
        let r = try Processes.run(["/usr/bin/time", "-f", "%M", "-o", dir + "/peak", cli, "render", ref, "-o", dir + "/out." + format.rawValue, "-q"])
        guard r.status == 0 else { throw BenchError("wavegen render \(ref) failed (\(r.status)): \(r.stderr)") }
        let text = (try? String(contentsOfFile: dir + "/peak", encoding: .utf8)) ?? ""
        return Int(text.split(separator: "\n").last.map { $0.trimmingCharacters(in: .whitespaces) } ?? "")
    }

    func memoryRows() throws -> (rows: [MemoryRow], baselineKiB: Int) {
        let small = try files.reference(for: Scene.big30)
        let large = try files.reference(for: Scene.big)
        var rows: [MemoryRow] = []
        for format in options.formats {
            log("memory \(format.rawValue): 30 and 300 frames")
            rows.append(MemoryRow(who: "bench child", format: format, rss30: try childRSS(small, format), rss300: try childRSS(large, format)))
            if let a = try cliRSS(small, format), let b = try cliRSS(large, format) {
                rows.append(MemoryRow(who: "wavegen CLI", format: format, rss30: a, rss300: b))
            }
        }
        return (rows, try childRSS(["--child-idle"]))
    }

    func run() throws {
        defer { files.remove() }
        let wanted = options.scenes
        let scenes = Scene.all().filter { s in wanted.map { $0.contains(s.name) } ?? !s.memoryOnly }
        if let wanted {
            let known = Set(Scene.all().map(\.name))
            for w in wanted where !known.contains(w) { throw BenchError("unknown scene '\(w)'; known: \(known.sorted().joined(separator: ", "))") }
        }
        var results: [Measurement] = []
        for scene in scenes {
            for format in options.formats { results.append(try measure(scene, format)) }
        }
        var memory: (rows: [MemoryRow], baselineKiB: Int)?
        if options.memory { memory = try memoryRows() }
        let report = Report(options: options, threads: pipelineThreads, results: results, memory: memory)
        print(options.json ? report.json() : report.text(), terminator: "")
    }
}

/// Child modes: one whole render, or nothing (the baseline); either writes its own peak RSS (KiB) to
/// the file named last.
enum Child {
    static func run(_ args: [String]) -> Int32 {
        guard args.count == 4, let format = OutputFormat(rawValue: args[1]) else { return 64 }
        do {
            let bytes = try Pipeline.full(args[0], format: format, threads: Int(args[2]) ?? 0)
            guard !bytes.isEmpty else { return 1 }
            return report(to: args[3])
        } catch {
            FileHandle.standardError.write(Data("\(error)\n".utf8))
            return 1
        }
    }

    static func idle(_ args: [String]) -> Int32 {
        guard let path = args.first else { return 64 }
        return report(to: path)
    }

    /// VmHWM of this process image (the high-water mark since exec) in KiB.
    static func report(to path: String) -> Int32 {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
              let kib = line.split(separator: " ").compactMap({ Int($0) }).first else { return 1 }
        do {
            try Data("\(kib)\n".utf8).write(to: URL(fileURLWithPath: path))
            return 0
        } catch {
            return 1
        }
    }
}
