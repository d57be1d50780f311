import WaveKit

/// One output format's writer. The pipeline prepares the animation once, then drives every writer
/// the same way: `begin`, then (for raster writers) every frame of the loop in order through `add`,
/// then `finish` for the file's bytes. Raster writers ask for frames drawn for a format (its pixel
/// storage and timing); vector writers ask for none and describe the motion from the animation's
/// config and plan instead.
///
/// Adding a format: one writer type conforming to this protocol and one `OutputFormat` case; the
/// compiler then lists every `switch` that must learn it (see docs/architecture.md).
public protocol AnimationWriter: AnyObject {
    /// The frames this writer consumes.
    var frames: FrameRequest { get }
    /// Starts the file. `raster` is the renderer whose frames will follow (its palette and timing),
    /// or nil when the writer asked for no frames.
    func begin(_ animation: Animation, raster: FrameRenderer?) throws(WaveError)
    /// Takes the next frame of the loop (only called when the writer asked for frames).
    func add(_ frame: RasterFrame) throws(WaveError)
    /// Ends the file and returns its bytes (empty for writers whose output is not one file).
    func finish() throws(WaveError) -> [UInt8]
    /// What the writer did, for `--verbose` (read after `finish`).
    var notes: [String] { get }
    /// Images in the file when the format merges identical frames (read after `finish`); nil when it
    /// does not say.
    var images: Int? { get }
}

/// The frames a writer consumes.
public enum FrameRequest: Equatable, Sendable {
    /// No frames: the writer describes the motion itself (vector formats).
    case none
    /// Every frame of the loop, drawn for this format's pixel storage and timing.
    case raster(OutputFormat)
}

extension AnimationWriter {
    public func add(_ frame: RasterFrame) throws(WaveError) {}
    public var notes: [String] { [] }
    public var images: Int? { nil }
}

/// A frame of the loop as raster writers receive it: palette indices, its delay, and its straight
/// RGBA pixels expanded on first use, once for every writer that asks.
public final class RasterFrame {
    /// The frame's position in the loop (0-based).
    public private(set) var index = 0
    /// Palette indices, `width` × `height`, row by row; with `isTrueColor`, the straight RGBA
    /// bytes themselves (4 a pixel).
    public private(set) var indices: [UInt8] = []
    /// How long the frame shows, in its format's unit (`FrameTiming.unit`).
    public private(set) var delay = 0
    /// The frame's matte plane (`FrameRenderer.render(frame:into:matte:cache:)`): 1 where a GIF
    /// pixel's color is blended against `gif.matte`; empty when the renderer marks none.
    public private(set) var matte: [UInt8] = []
    public let palette: Palette
    /// Whether the frame is drawn in true color (a scene with gradients for WebP or PNG,
    /// `FrameRenderer.drawsTrueColor`): no palette holds its colors.
    public let isTrueColor: Bool
    private var expanded: [UInt8] = []
    private var expandedIndex = -1

    init(palette: Palette, trueColor: Bool = false) {
        self.palette = palette
        isTrueColor = trueColor
    }

    /// Straight-alpha RGBA bytes of the frame.
    public var rgba: [UInt8] {
        if isTrueColor { return indices }
        if expandedIndex != index {
            palette.expand(indices, into: &expanded)
            expandedIndex = index
        }
        return expanded
    }

    func show(_ index: Int, indices: [UInt8], matte: [UInt8], delay: Int) {
        self.index = index
        self.indices = indices
        self.matte = matte
        self.delay = delay
        expandedIndex = -1
    }
}
