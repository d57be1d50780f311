import Foundation
import WaveKit

/// The tables and the JSON.
struct Report {
    var options: Options
    var threads: Int
    var results: [Measurement]
    var memory: (rows: [MemoryRow], baselineKiB: Int)?

    static let gifGoal = 1.5
    static let webpGoal = 1.2
    static let memoryGoal = 1.10

    // MARK: text

    func text() -> String {
        var out = "wavegen-bench: \(ProcessInfo.processInfo.activeProcessorCount) cores, whole-pipeline runs on \(threads) thread(s), "
            + "medians of \(options.runs) timed run(s) after one warm-up; times in ms\n\n"
        out += "Stages. load = preset to WaveConfig (rider PNG decoded); plan = LoopPlanner; setup = label text (FreeType)\n"
        out += "and FrameRenderer.init (coverage, palette, base frame); render = render(frame:) for every frame on one thread;\n"
        out += "encode = the encoder fed those frames (WebP: incl. expanding indices to RGBA); enc CPU = its CPU time, every\n"
        out += "thread (the figure to compare on a busy machine); total = the whole `render`\n"
        out += "command short of writing the file (load, plan, setup, frames rendered on \(threads) thread(s) while encoding);\n"
        out += "fps and MP/s from total; CLI = `wavegen render` as a process (start-up and writing the file included);\n"
        out += "peak RSS = one whole render in a child process.\n"
        var rows = [["scene", "fmt", "size", "frames", "load", "plan", "setup", "render", "ms/frame", "encode", "enc CPU", "total", "fps", "MP/s", "CLI", "bytes", "peak RSS"]]
        for m in results {
            rows.append([m.scene, m.format.rawValue, "\(m.width)×\(m.height)", "\(m.frames)",
                         ms(m.load.median), ms(m.plan.median), ms(m.setup.median), ms(m.render.median), ms(m.render.median / Double(m.frames)),
                         ms(m.encode.median), ms(m.encodeCPU.median), ms(m.total.median), fmt(Double(m.frames) / m.total.median, 0),
                         fmt(m.pixels * Double(m.frames) / m.total.median / 1e6, 1), m.cli.values.isEmpty ? "–" : ms(m.cli.median),
                         "\(m.bytes)", mib(m.peakRSSKiB)])
        }
        out += table(rows, leftColumns: 3)

        for m in results where m.cliBytes != nil && m.cliBytes != m.bytes {
            out += "warning: \(m.scene) \(m.format.rawValue): `wavegen render` wrote \(m.cliBytes!) bytes, this pipeline \(m.bytes)\n"
        }

        let gifs = results.filter { $0.format == .gif }
        if !gifs.isEmpty {
            out += "\nGIF against the encoder floor: giflib on the same index frames, full canvas every frame, no optimisation\n"
            out += "(EGifOpen to memory, one screen descriptor, per frame a GCB and EGifPutLine). serial = load+plan+setup+render+encode\n"
            out += "on one thread. Goal: total ≤ \(fmt(Report.gifGoal, 1)) × floor.\n"
            var rows = [["scene", "total", "serial", "floor", "bytes", "floor bytes", "total/floor", "serial/floor", "goal"]]
            for m in gifs {
                let ratio = m.total.median / m.floor.median
                rows.append([m.scene, ms(m.total.median), ms(m.serial), ms(m.floor.median), "\(m.bytes)", m.floorBytes.map(String.init) ?? "–",
                             fmt(ratio, 2) + "×", fmt(m.serial / m.floor.median, 2) + "×", ratio <= Report.gifGoal ? "met" : "MISSED"])
            }
            out += table(rows, leftColumns: 1)
        }

        let webps = results.filter { $0.format == .webp }
        if !webps.isEmpty && options.img2webp {
            out += "\nWebP against img2webp on the same frames (PAM files; wavegen's settings: \(img2webpSettings)).\n"
            out += "Goal: total ≤ \(fmt(Report.webpGoal, 1)) × img2webp.\n"
            out += "encode includes expand = Palette.expand (indices to RGBA) for every frame.\n"
            var rows = [["scene", "total", "encode", "expand", "img2webp", "bytes", "img2webp bytes", "total/img2webp", "goal"]]
            for m in webps {
                if let note = m.img2webpNote {
                    rows.append([m.scene, ms(m.total.median), ms(m.encode.median), ms(m.expand.median), note, "\(m.bytes)", "", "", "skipped"])
                    continue
                }
                let ratio = m.total.median / m.img2webp.median
                rows.append([m.scene, ms(m.total.median), ms(m.encode.median), ms(m.expand.median), ms(m.img2webp.median), "\(m.bytes)",
                             m.img2webpBytes.map(String.init) ?? "–", fmt(ratio, 2) + "×", ratio <= Report.webpGoal ? "met" : "MISSED"])
            }
            out += table(rows, leftColumns: 1)
        }

        if let memory {
            out += "\nMemory: peak RSS of one whole render of the big scene (1024×1024, same 6 s loop) at 30 frames (5 fps)\n"
            out += "and at 300 frames (50 fps), each in its own process. Goal: 300 frames ≤ \(fmt(Report.memoryGoal, 2)) × 30 frames.\n"
            out += "An empty child process of this executable peaks at \(mib(memory.baselineKiB)).\n"
            var rows = [["process", "fmt", "30 frames", "300 frames", "ratio", "goal"]]
            for r in memory.rows {
                let ratio = r.ratio
                rows.append([r.who, r.format.rawValue, mib(r.rss30), mib(r.rss300), ratio.map { fmt($0, 3) + "×" } ?? "–",
                             ratio.map { $0 <= Report.memoryGoal ? "met" : "MISSED" } ?? "–"])
            }
            out += table(rows, leftColumns: 2)
        }
        return out
    }

    private var img2webpSettings: String {
        "-lossless|-lossy -q QUALITY -m EFFORT from the preset, -min_size from -m 4 up, -mixed when lossy; default -min_size -lossless -q 75 -m 4"
    }

    private func ms(_ seconds: Double) -> String {
        guard seconds.isFinite else { return "–" }
        let v = seconds * 1000
        return NumberText.fixed(v, places: v < 1 ? 3 : v < 100 ? 1 : 0)
    }

    private func fmt(_ v: Double, _ digits: Int) -> String {
        v.isFinite ? NumberText.fixed(v, places: digits) : "–"
    }

    private func mib(_ kib: Int?) -> String {
        kib.map { NumberText.fixed(Double($0) / 1024, places: 1) + " MiB" } ?? "–"
    }

    /// Columns padded to width; the first `leftColumns` left-aligned, the rest right-aligned.
    private func table(_ rows: [[String]], leftColumns: Int) -> String {
        let columns = rows.map(\.count).max() ?? 0
        var widths = [Int](repeating: 0, count: columns)
        for r in rows { for (i, c) in r.enumerated() { widths[i] = max(widths[i], c.count) } }
        var out = ""
        for r in rows {
            var line = ""
            for (i, c) in r.enumerated() {
                let pad = String(repeating: " ", count: widths[i] - c.count)
                line += i < leftColumns ? c + pad : pad + c
                if i < r.count - 1 { line += "  " }
            }
            while line.hasSuffix(" ") { line.removeLast() }
            out += line + "\n"
        }
        return out
    }

    // MARK: JSON

    func json() -> String {
        func stage(_ s: Samples) -> JSONNode {
            .object([("median", .number(s.median)), ("min", .number(s.min)), ("max", .number(s.max)), ("runs", .array(s.values.map { .number($0) }))])
        }
        let cases = results.map { m -> JSONNode in
            var pairs: [(String, JSONNode)] = [
                ("scene", .string(m.scene)), ("format", .string(m.format.rawValue)),
                ("width", .int(m.width)), ("height", .int(m.height)), ("frames", .int(m.frames)), ("bytes", .int(m.bytes)),
                ("seconds", .object([
                    ("load", stage(m.load)), ("plan", stage(m.plan)), ("setup", stage(m.setup)), ("render", stage(m.render)),
                    ("encode", stage(m.encode)), ("encodeCPU", stage(m.encodeCPU)), ("expand", stage(m.expand)), ("total", stage(m.total)),
                    ("cli", m.cli.values.isEmpty ? .null : stage(m.cli)),
                ])),
                ("serialSeconds", .number(m.serial)),
                ("renderSecondsPerFrame", .number(m.render.median / Double(m.frames))),
                ("framesPerSecond", .number(Double(m.frames) / m.total.median)),
                ("megapixelsPerSecond", .number(m.pixels * Double(m.frames) / m.total.median / 1e6)),
                ("renderMegapixelsPerSecond", .number(m.pixels * Double(m.frames) / m.render.median / 1e6)),
                ("encodeMegapixelsPerSecond", .number(m.pixels * Double(m.frames) / m.encode.median / 1e6)),
                ("peakRSSBytes", .int(m.peakRSSKiB.map { $0 * 1024 })),
                ("cliBytes", .int(m.cliBytes)),
            ]
            if m.format == .gif {
                let ratio = m.total.median / m.floor.median
                pairs.append(("gifFloor", .object([
                    ("seconds", stage(m.floor)), ("bytes", .int(m.floorBytes)),
                    ("totalRatio", .number(ratio)), ("serialRatio", .number(m.serial / m.floor.median)),
                    ("goal", .number(Report.gifGoal)), ("met", .bool(ratio <= Report.gifGoal)),
                ])))
            }
            if m.format == .webp && options.img2webp {
                if let note = m.img2webpNote {
                    pairs.append(("img2webp", .object([("skipped", .string(note))])))
                } else {
                    let ratio = m.total.median / m.img2webp.median
                    pairs.append(("img2webp", .object([
                        ("seconds", stage(m.img2webp)), ("bytes", .int(m.img2webpBytes)),
                        ("totalRatio", .number(ratio)), ("goal", .number(Report.webpGoal)), ("met", .bool(ratio <= Report.webpGoal)),
                    ])))
                }
            }
            return .object(pairs)
        }
        var root: [(String, JSONNode)] = [
            ("cores", .int(ProcessInfo.processInfo.activeProcessorCount)),
            ("pipelineThreads", .int(threads)),
            ("runs", .int(options.runs)),
            ("cases", .array(cases)),
        ]
        if let memory {
            root.append(("memory", .object([
                ("scene", .string("big: 1024×1024, 6 s loop, 30 frames at 5 fps vs 300 frames at 50 fps")),
                ("baselineRSSBytes", .int(memory.baselineKiB * 1024)),
                ("goal", .number(Report.memoryGoal)),
                ("rows", .array(memory.rows.map { r in
                    .object([("process", .string(r.who)), ("format", .string(r.format.rawValue)),
                             ("rss30FramesBytes", .int(r.rss30.map { $0 * 1024 })), ("rss300FramesBytes", .int(r.rss300.map { $0 * 1024 })),
                             ("ratio", .number(r.ratio)), ("met", r.ratio.map { .bool($0 <= Report.memoryGoal) } ?? .null)])
                })),
            ])))
        }
        return JSONNode.object(root).serialized() + "\n"
    }
}
