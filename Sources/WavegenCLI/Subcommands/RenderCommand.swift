import WavePlatform
import WaveKit
import WaveRender
import WaveBuild

/// `wavegen render [PRESET] -o OUT`
enum RenderCommand: Subcommand {
    static let spec = CommandSpec(
        name: "render",
        abstract: "Render a preset to an animated GIF, WebP, APNG, SVG, Lottie or dotLottie.",
        usage: "wavegen render [<preset>] --output <file> [options]",
        arguments: [ArgumentSpec(name: "<preset>", help: "A preset file, or the name of a bundled preset (default: \(PresetOptions.defaultPreset)).",
                                 completion: .presets)],
        options: [
            OptionSpec(names: ["--output", "-o"], value: "file",
                       help: "The file to write; .gif, .webp, .png (APNG), .svg, .json (Lottie) or .lottie (dotLottie) picks the format. '-' writes to standard output (with --format, not to a terminal).",
                       completion: .files(OutputFormat.allCases.map(\.fileExtension))),
            OptionSpec(names: ["--format"], value: OutputFormat.allCases.map(\.rawValue).joined(separator: "|"),
                       help: "The format, when the file name does not say; it may not contradict a .gif, .webp, .png, .svg, .json or .lottie name.",
                       completion: .words(OutputFormat.allCases.map(\.rawValue))),
            OptionSpec(names: ["--frames"], value: "dir",
                       help: "Also write every frame as frame-0000.png, … into this folder, removing frame-*.png files an earlier render left there beyond this loop. The frames are the output's: a GIF's with its gif.edges applied (matte or cut, no partial alpha), a WebP's or APNG's with true alpha.",
                       completion: .directories),
            OptionSpec(names: ["--max-bytes"], value: "size",
                       help: "Fit the file in this size (40000, 40kB, 39KiB, 1MB): turn edgeStep (or gif.colors, GIF), gif.lossy (GIF), lossy WebP quality (WebP) and the frame rate (by whole divisors, down to 10 fps) as little as the budget allows, and say what was chosen; exit 1 and write nothing when even the smallest setting is larger."),
            OptionSpec(names: ["--live"], value: nil,
                       help: "SVG only: write a live SVG whose level follows the CSS custom property --level (0 to 1) the page sets on it or an ancestor, easing over the preset's live.transition; a {percent} label follows it. The preset's level must be a number (docs/live.md)."),
            OptionSpec(names: ["--strict"], value: nil, help: "Fail instead of warning when a fixed duration moves a speed beyond speedTolerance or the label does not fit."),
            OptionSpec(names: ["--threads", "-j"], value: "n",
                       help: "Draw frames on this many threads (build's -j counts outputs rendered at once; both are parallelism); at most 64 are used, a larger count is clamped with a warning.", defaultText: "one per core"),
            OptionSpec(names: ["--verbose", "-v"], value: nil, help: "Describe the plan, palette and encoder choices on stderr."),
            OptionSpec(names: ["--quiet", "-q"], value: nil, help: "Print nothing on success."),
        ] + PresetOptions.specs)

    /// The `--output` value that means standard output.
    static let standardOutput = "-"

    static func run(_ a: ParsedArguments, console: Console) throws(WaveError) {
        guard a.positionals.count <= 1 else { throw .usage("render takes one preset, got \(a.positionals.count)") }
        guard let output = a.value("--output") else { throw .usage("missing --output <file>") }
        let toStdout = output == standardOutput
        let format = try outputFormat(output, explicit: a.value("--format"))
        if toStdout, console.outIsTerminal, !format.isText {
            throw .usage("will not write \(format.name) to a terminal; redirect standard output or name a file with -o")
        }
        let threads = try Parallelism.count(a, option: "--threads", console: console) ?? 0
        let maxBytes = try a.value("--max-bytes").map { (v: String) throws(WaveError) -> Int in
            guard let n = NumberText.byteSize(v) else {
                throw .usage("--max-bytes expects a size in bytes such as 40000, 40kB or 39KiB, got '\(v)'")
            }
            return n
        }
        var config = try PresetOptions.load(a.positionals.first ?? PresetOptions.defaultPreset, a)
        var plan = try PlanCommand.plan(config, strict: a.has("--strict"), console: console)
        if !toStdout { try AtomicFile.checkWritable(output) }
        let framesFolder = a.value("--frames")
        let live = a.has("--live")
        if live, format != .svg {
            throw .usage("--live writes a live SVG; \(format.name) has no page to take its level from (name the output .svg)")
        }
        if live, case .still = config.level {} else if live {
            throw .usage("--live takes the level from the page, so the preset's level must be a number, not an animation (from/to or tide); add --level 0.5")
        }
        if framesFolder != nil, format.isVector {
            throw .usage("--frames writes raster frames; \(format == .svg ? "an SVG" : "a \(format.name)") has none (render a .webp or .gif with --frames to see them)")
        }
        if format.isVector, !a.has("--quiet"), let note = RenderAdvice.ignoredOptions(config, format: format) { console.err("note: \(note)\n") }
        if let dir = framesFolder { try RenderAdvice.createFramesFolder(dir) }
        let pipeline = RenderPipeline(threads: threads)
        var fitted: SizeFit.Candidate?
        if let maxBytes {
            if live { throw .usage("--max-bytes has nothing to turn in a live SVG; drop one of them") }
            let fit = try fitToBudget(maxBytes, output: toStdout ? "(standard output)" : output, config: config, plan: plan,
                                      format: format, pipeline: pipeline, verbose: a.has("--verbose"), console: console)
            (config, plan, fitted) = (fit.config, fit.plan, fit)
        }
        var writers = [format.writer(for: config, live: live)]
        if let dir = framesFolder {
            writers.append(PNGFrameWriter(format: format) { (k: Int, png: [UInt8]) throws(WaveError) in
                try AtomicFile.write(png, to: dir + "/" + PNGFrameWriter.fileName(k))
            })
        }
        let result: RenderPipeline.Written
        let animation = try pipeline.prepare(config, plan: plan, strict: a.has("--strict"))
        for w in animation.warnings { console.err("\(config.source): warning: \(w)\n") }
        // A fit encoded its choice whole: that file is the render of its settings (not reused when
        // frames are written too, which need the frames drawn).
        if framesFolder == nil, let reused = fitted?.reusable(live: live) {
            result = reused
        } else {
            result = try pipeline.write(animation, to: writers)[0]
        }
        if toStdout {
            console.outBytes(result.bytes)
        } else {
            try AtomicFile.write(result.bytes, to: output)
        }
        if let dir = framesFolder, let count = result.timing?.frameCount {
            for w in RenderAdvice.removeStaleFrames(in: dir, keeping: count) { console.err("warning: \(w)\n") }
        }
        for note in result.timing?.notes ?? [] { console.err("\(config.source): warning: \(note)\n") }
        if a.has("--verbose") {
            console.err("note: plan: \(PlanReport.summary(plan, config: config))\n")
            if let palette = result.palette {
                let capped = palette.notes.isEmpty ? "" : "; " + palette.notes.joined(separator: "; ")
                console.err("note: palette: \(palette.summary)\(capped)\n")
            }
            for note in result.notes { console.err("note: \(note)\n") }
        }
        if !a.has("--quiet"), let fitted, let maxBytes {
            console.err("\(toStdout ? "(standard output)" : output): \(SizeFit.describe(fitted, maxBytes: maxBytes))\n")
        }
        if !a.has("--quiet"), fitted == nil, let hint = RenderAdvice.sizeHint(format, config: config, bytes: result.bytes.count) { console.err("hint: \(hint)\n") }
        if !a.has("--quiet") {
            var frames = ""
            if let timing = result.timing {
                frames = ", " + NumberText.count(timing.frameCount, "frame")
                if let images = result.images, images != timing.frameCount { frames += " (\(images) \(images == 1 ? "image" : "images") in the file)" }
            }
            let line = "\(toStdout ? "(standard output)" : output): \(config.width)×\(config.height)\(frames), \(NumberText.decimal(plan.duration, places: 3)) s, \(NumberText.bytes(result.bytes.count))\n"
            if toStdout { console.err(line) } else { console.out(line) }
        }
    }

    /// Runs the `--max-bytes` search; nothing fits: exit 1, naming the smallest file reached.
    static func fitToBudget(_ maxBytes: Int, output: String, config: WaveConfig, plan: LoopPlan, format: OutputFormat,
                            pipeline: RenderPipeline, verbose: Bool, console: Console) throws(WaveError) -> SizeFit.Candidate {
        let result = try SizeFit(config: config, plan: plan, format: format, maxBytes: maxBytes, pipeline: pipeline).run()
        if verbose {
            for c in result.tried {
                console.err("note: fit: \(c.summary): \(NumberText.grouped(c.bytes.count)) bytes, \(c.psnrText)\n")
            }
        }
        guard let chosen = result.chosen else {
            throw SizeFit.nothingFits(result, format: format, maxBytes: maxBytes).changingMessages { "\(output): " + $0 }
        }
        return chosen
    }

    /// The format `--format` names, else the one the output's extension names. A format that
    /// contradicts a known extension is refused rather than writing one format under another's name.
    static func outputFormat(_ path: String, explicit: String?) throws(WaveError) -> OutputFormat {
        let ext = path == standardOutput ? "" : PathText.pathExtension(of: path).lowercased()
        let named = OutputFormat(fileExtension: ext)
        let formats = OutputFormat.allCases.map(\.rawValue).joined(separator: " or ")
        if let explicit {
            guard let f = OutputFormat(rawValue: explicit.lowercased()) else {
                throw .usage("--format must be \(formats), got '\(explicit)'")
            }
            if let named, named != f {
                throw .usage("--format \(f.rawValue) contradicts the file name '\(path)' (a .\(ext) file is \(named.name)); name it .\(f.fileExtension) or drop --format")
            }
            return f
        }
        guard let named else {
            if path == standardOutput { throw .usage("writing to standard output needs --format \(formats.replacingAll(" or ", with: "|"))") }
            throw .usage("cannot tell the format from '\(path)'; name it \(OutputFormat.extensionList), or pass --format")
        }
        return named
    }
}
