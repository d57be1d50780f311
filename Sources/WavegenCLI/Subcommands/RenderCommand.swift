import Foundation
import WaveKit
import WaveRender

/// `wavegen render [PRESET] -o OUT`
enum RenderCommand: Subcommand {
    static let spec = CommandSpec(
        name: "render",
        abstract: "Render a preset to an animated GIF or WebP.",
        usage: "wavegen render [<preset>] --output <file> [options]",
        arguments: [("<preset>", "A preset file, or the name of a bundled preset (default: \(PresetOptions.defaultPreset)).")],
        options: [
            OptionSpec(names: ["--output", "-o"], value: "file", help: "The file to write; .gif or .webp picks the format."),
            OptionSpec(names: ["--format"], value: "gif|webp", help: "The format, when the file name does not say."),
            OptionSpec(names: ["--frames"], value: "dir", help: "Also write every frame as a numbered PNG into this folder."),
            OptionSpec(names: ["--strict"], value: nil, help: "Fail instead of warning when a fixed duration moves a speed beyond speedTolerance."),
            OptionSpec(names: ["--threads", "-j"], value: "n", help: "Render with this many threads.", defaultText: "one per core"),
            OptionSpec(names: ["--verbose", "-v"], value: nil, help: "Describe the plan, palette and encoder choices on stderr."),
            OptionSpec(names: ["--quiet", "-q"], value: nil, help: "Print nothing on success."),
        ] + PresetOptions.specs)

    static func run(_ a: ParsedArguments, console: Console) throws(CommandError) {
        guard a.positionals.count <= 1 else { throw .usage("render takes one preset, got \(a.positionals.count)") }
        guard let output = a.value("--output") else { throw .usage("missing --output <file>") }
        let format = try outputFormat(output, explicit: a.value("--format"))
        let threads = try a.value("--threads").map { (v: String) throws(CommandError) -> Int in
            guard let n = Int(v), n >= 1 else { throw .usage("--threads expects a whole number ≥ 1, got '\(v)'") }
            return n
        } ?? 0
        let config = try PresetOptions.load(a.positionals.first ?? PresetOptions.defaultPreset, a)
        let plan = try PlanCommand.plan(config, strict: a.has("--strict"), console: console)
        try AtomicFile.checkWritable(output)
        if let dir = a.value("--frames") {
            do {
                try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
            } catch {
                throw CommandError(.cannotWrite, ["\(dir): cannot create the frames folder: \(error.localizedDescription)"])
            }
        }
        let pipeline = RenderPipeline(threads: threads)
        var writers = [format.writer(for: config)]
        if let dir = a.value("--frames") {
            writers.append(PNGFrameWriter(format: format) { (k: Int, png: [UInt8]) throws(RenderError) in
                do throws(CommandError) {
                    try AtomicFile.write(png, to: dir + "/" + PNGFrameWriter.fileName(k))
                } catch {
                    throw RenderError(.cannotWrite, error.lines)
                }
            })
        }
        let result: RenderPipeline.Written
        do {
            let animation = try pipeline.prepare(config, plan: plan)
            result = try pipeline.write(animation, to: writers)[0]
        } catch {
            throw error.commandError
        }
        try AtomicFile.write(result.bytes, to: output)
        let timing = result.timing
        if a.has("--verbose") {
            for note in result.notes { console.err("note: \(note)\n") }
            if let palette = result.palette {
                console.err("note: palette \(palette.colors.count) colors: \(palette.flatCount) flat, \(palette.rampCount) edges × \(palette.rampSteps) steps\n")
            }
        } else {
            for note in timing?.notes ?? [] { console.err("warning: \(note)\n") }
        }
        if !a.has("--quiet") {
            let frames = timing.map { ", \($0.frameCount) frames" } ?? ""
            console.out("\(output): \(config.width)×\(config.height)\(frames), \(FormatText.seconds(plan.duration)) s, \(FormatText.bytes(result.bytes.count))\n")
        }
    }

    static func outputFormat(_ path: String, explicit: String?) throws(CommandError) -> OutputFormat {
        if let explicit {
            guard let f = OutputFormat(rawValue: explicit.lowercased()) else {
                throw .usage("--format must be gif or webp, got '\(explicit)'")
            }
            return f
        }
        let ext = URL(fileURLWithPath: path).pathExtension.lowercased()
        guard let f = OutputFormat(rawValue: ext) else {
            throw .usage("cannot tell the format from '\(path)'; name it .gif or .webp, or pass --format")
        }
        return f
    }
}

/// Small number formats for terminal output.
enum FormatText {
    static func seconds(_ v: Double) -> String {
        let r = (v * 1000).rounded() / 1000
        return r == r.rounded() ? String(Int(r)) : String(r)
    }

    static func bytes(_ n: Int) -> String {
        n < 10_000 ? "\(n) bytes" : String(format: "%.1f KB", Double(n) / 1000)
    }
}
