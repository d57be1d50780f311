import Foundation
import WaveGIF
import WaveKit
import WavePNG
import WaveText
import WaveWebP

/// The end of the pipeline: renders a config's frames and encodes them into file bytes.
struct AnimationEncoder {
    /// What a render produced, for reports.
    struct Output {
        var bytes: [UInt8]
        var format: OutputFormat
        var timing: FrameTiming
        var palette: Palette
        var notes: [String]
    }

    var threads = 0
    /// Also write every frame as a numbered PNG into this folder.
    var framesDirectory: String?

    func encode(_ config: WaveConfig, plan: LoopPlan, format: OutputFormat) throws(CommandError) -> Output {
        let renderer = FrameRenderer(config: config, plan: plan, format: format, label: try AnimationEncoder.labelOverlay(config))
        let timing = renderer.timing
        let palette = renderer.palette
        var notes = timing.notes + palette.notes
        var rgba: [UInt8] = []
        let bytes: [UInt8]
        do {
            switch format {
            case .gif:
                let gif = try AnimationEncoder.gifEncoder(renderer)
                try renderer.renderAll(threads: threads) { k, frame in
                    try gif.add(frame, delay: timing.delays[k])
                    if framesDirectory != nil {
                        palette.expand(frame, into: &rgba)
                        try writeFrame(k, rgba: rgba, config: config)
                    }
                }
                bytes = try gif.finish()
                let s = gif.stats
                notes.append("GIF: \(s.framesWritten) frames written (\(s.framesMerged) merged, \(s.framesWithKey) with unchanged pixels keyed, \(s.framesCleared) cleared by disposal), \(palette.colors.count) colors")
            case .webp:
                let webp = try WebPAnimationEncoder(width: config.width, height: config.height,
                                                    options: AnimationEncoder.webpOptions(config))
                try renderer.renderAll(threads: threads) { k, frame in
                    palette.expand(frame, into: &rgba)
                    try webp.add(rgba: rgba, duration: timing.delays[k])
                    try writeFrame(k, rgba: rgba, config: config)
                }
                bytes = try webp.finish()
            }
        } catch let e as GIFError {
            throw CommandError(.failure, [e.description])
        } catch let e as WebPError {
            throw CommandError(.failure, [e.description])
        } catch let e as CommandError {
            throw e
        } catch {
            throw CommandError(.failure, ["\(error)"])
        }
        return Output(bytes: bytes, format: format, timing: timing, palette: palette, notes: notes)
    }

    /// The WebP encoder's settings for a config.
    static func webpOptions(_ config: WaveConfig) -> WebPAnimationEncoder.Options {
        WebPAnimationEncoder.Options(lossless: config.webp.lossless, quality: Float(config.webp.quality),
                                     effort: config.webp.effort, plays: config.loops)
    }

    /// The GIF encoder for a renderer's frames: its palette, transparency and loop count, and the
    /// color table ordered by use.
    static func gifEncoder(_ renderer: FrameRenderer) throws(GIFError) -> GIFEncoder {
        let config = renderer.config, palette = renderer.palette
        return try GIFEncoder(width: config.width, height: config.height,
                              colors: palette.colors.map { RGBA8($0.r, $0.g, $0.b, $0.a) },
                              transparentIndex: palette.transparentIndex, plays: config.loops)
    }

    /// The label's text rendered with FreeType and placed in the box, if the preset has a label.
    static func labelOverlay(_ config: WaveConfig) throws(CommandError) -> LabelOverlay? {
        guard let label = config.label else { return nil }
        let font = label.font ?? Label.defaultFont
        guard FileManager.default.fileExists(atPath: font) else {
            let hint = label.font == nil ? " (the default font comes with Debian's fonts-dejavu-core package)" : ""
            throw config.problem("\(font): no such file\(hint)", keyPath: "label.font", kind: .missingInput)
        }
        do {
            let mask = try TextRasterizer.render(label.text(level: config.level.nominal), fontPath: font,
                                                 pixelSize: label.size, strokeWidth: label.strokeWidth)
            return LabelOverlay(label: label, box: config.box, width: mask.width, height: mask.height, fill: mask.fill, stroke: mask.stroke)
        } catch {
            throw config.problem(error.message, keyPath: "label.font")
        }
    }

    /// Writes frame `k` (straight RGBA) as a numbered PNG, when frames are asked for.
    private func writeFrame(_ k: Int, rgba: [UInt8], config: WaveConfig) throws {
        guard let dir = framesDirectory else { return }
        let png: [UInt8]
        do {
            png = try PNGImage(width: config.width, height: config.height, rgba: rgba).encoded()
        } catch {
            throw CommandError(.failure, [error.description])
        }
        let name = String(format: "frame-%04d.png", k)
        try AtomicFile.write(png, to: dir + "/" + name)
    }
}
