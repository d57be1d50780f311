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
        let colors = palette.colors.map { RGBA8($0.r, $0.g, $0.b, $0.a) }
        var notes = timing.notes + palette.notes
        var rgba: [UInt8] = []
        let bytes: [UInt8]
        do {
            switch format {
            case .gif:
                let (gifBytes, s) = try AnimationEncoder.encodeGIF(renderer, threads: threads) { k, frame in
                    try writeFrame(k, frame, palette: palette, config: config, rgba: &rgba)
                }
                bytes = gifBytes
                notes.append("GIF: \(s.framesWritten) frames written (\(s.framesMerged) merged, \(s.framesWithKey) with unchanged pixels keyed, \(s.framesCleared) cleared by disposal), \(colors.count) colors")
            case .webp:
                let webp = try WebPAnimationEncoder(width: config.width, height: config.height,
                                                    options: AnimationEncoder.webpOptions(config))
                try renderer.renderAll(threads: threads) { k, frame in
                    palette.expand(frame, into: &rgba)
                    try webp.add(rgba: rgba, duration: timing.delays[k])
                    try writeFrame(k, frame, palette: palette, config: config, rgba: &rgba)
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

    /// Renders and encodes the GIF, calling `each` with every frame as it goes; returns the file's
    /// bytes and what the encoder did.
    ///
    /// The color table is ordered by which colors the frames use (`GIFColorUsage`), which must be
    /// known before the first frame is written: the first frames are held back (the whole loop when
    /// it fits in `heldPixels` bytes), their consecutive pairs counted, and then everything is
    /// encoded in order. Rendering goes on meanwhile, so no frame is rendered twice and memory
    /// stays bounded whatever the frame count.
    static func encodeGIF(_ renderer: FrameRenderer, threads: Int,
                          each: (Int, [UInt8]) throws -> Void = { _, _ in }) throws -> (bytes: [UInt8], stats: GIFEncoder.Stats) {
        let delays = renderer.timing.delays
        let held = heldFrames(renderer)
        var buffer: [[UInt8]] = []
        var gif: GIFEncoder?
        try renderer.renderAll(threads: threads) { k, frame in
            if let gif {
                try gif.add(frame, delay: delays[k])
                try each(k, frame)
                return
            }
            buffer.append(frame)
            guard buffer.count == held else { return }
            let encoder = try gifEncoder(renderer, colorOrder: gifColorOrder(renderer, frames: buffer))
            for (j, f) in buffer.enumerated() {
                try encoder.add(f, delay: delays[j])
                try each(j, f)
            }
            buffer = []
            gif = encoder
        }
        guard let gif else { throw GIFError(operation: "encoding", message: "no frames") }
        return (try gif.finish(), gif.stats)
    }

    /// How many of the loop's first frames `encodeGIF` counts colors on before encoding: all of
    /// them when they fit in `heldPixels` bytes, else as many as fit, but at least 9.
    static func heldFrames(_ renderer: FrameRenderer) -> Int {
        let count = renderer.timing.frameCount
        let pixels = max(1, renderer.config.width * renderer.config.height)
        return min(count, max(9, heldPixels / pixels))
    }

    static let heldPixels = 4 << 20

    /// The color-table order for the renderer's GIF, counted on every consecutive pair of `frames`
    /// (the loop's first frames, in order).
    static func gifColorOrder(_ renderer: FrameRenderer, frames: [[UInt8]]) -> [Int] {
        let width = renderer.config.width, height = renderer.config.height
        var usage = GIFColorUsage(entries: renderer.palette.colors.count, alwaysUsed: renderer.palette.transparentIndex)
        for k in frames.indices.dropFirst() { usage.add(previous: frames[k - 1], frame: frames[k], width: width, height: height) }
        return usage.order
    }

    static func gifEncoder(_ renderer: FrameRenderer, colorOrder: [Int]) throws -> GIFEncoder {
        let config = renderer.config, palette = renderer.palette
        return try GIFEncoder(width: config.width, height: config.height,
                              colors: palette.colors.map { RGBA8($0.r, $0.g, $0.b, $0.a) },
                              transparentIndex: palette.transparentIndex, plays: config.loops, colorOrder: colorOrder)
    }

    /// The label's text rendered with FreeType and placed in the box, if the preset has a label.
    static func labelOverlay(_ config: WaveConfig) throws(CommandError) -> LabelOverlay? {
        guard let label = config.label else { return nil }
        let font = label.font ?? Label.defaultFont
        guard FileManager.default.fileExists(atPath: font) else {
            let hint = label.font == nil ? " (the default font comes with Debian's fonts-dejavu-core package)" : ""
            throw CommandError(.noInput, ["\(config.source): at label.font: \(font): no such file\(hint)"])
        }
        do {
            let mask = try TextRasterizer.render(label.text(level: config.level.nominal), fontPath: font,
                                                 pixelSize: label.size, strokeWidth: label.strokeWidth)
            return LabelOverlay(label: label, box: config.box, width: mask.width, height: mask.height, fill: mask.fill, stroke: mask.stroke)
        } catch {
            throw CommandError(.dataError, ["\(config.source): at label.font: \(error.message)"])
        }
    }

    private func writeFrame(_ k: Int, _ frame: [UInt8], palette: Palette, config: WaveConfig, rgba: inout [UInt8]) throws {
        guard let dir = framesDirectory else { return }
        palette.expand(frame, into: &rgba)
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

import Foundation
