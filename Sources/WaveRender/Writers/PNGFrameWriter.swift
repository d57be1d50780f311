import WaveKit
import WavePNG

/// Every frame of the loop as its own PNG (straight-alpha RGBA), for inspection beside another
/// output: it asks for the frames of that output's format, so the PNGs show exactly its pixels.
/// Each PNG goes to `emit` with its frame index; the writer keeps nothing.
public final class PNGFrameWriter: AnimationWriter {
    public let frames: FrameRequest
    private let emit: (_ index: Int, _ png: [UInt8]) throws(WaveError) -> Void
    private var width = 0, height = 0

    /// Frames drawn for `format`; `emit` stores each encoded PNG.
    public init(format: OutputFormat, emit: @escaping (_ index: Int, _ png: [UInt8]) throws(WaveError) -> Void) {
        frames = .raster(format)
        self.emit = emit
    }

    /// The conventional file name of frame `index`: `frame-0007.png`.
    public static func fileName(_ index: Int) -> String {
        "frame-" + NumberText.padded(index, digits: 4) + ".png"
    }

    /// The frame index a file name such as `frame-0007.png` stands for, or nil for any other name.
    public static func frameIndex(fileName name: String) -> Int? {
        guard name.hasPrefix("frame-"), name.hasSuffix(".png") else { return nil }
        let digits = name.dropFirst(6).dropLast(4)
        guard digits.count >= 4, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        return Int(digits)
    }

    public func begin(_ animation: Animation, raster: FrameRenderer?) throws(WaveError) {
        width = animation.config.width
        height = animation.config.height
    }

    public func add(_ frame: RasterFrame) throws(WaveError) {
        let png: [UInt8]
        do {
            png = try PNGImage(width: width, height: height, rgba: frame.rgba).encoded()
        } catch {
            throw WaveError(.failure, [error.description])
        }
        try emit(frame.index, png)
    }

    public func finish() throws(WaveError) -> [UInt8] { [] }
}
