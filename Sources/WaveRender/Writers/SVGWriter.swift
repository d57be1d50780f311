import WaveKit
import WaveText

/// Animated SVG: one self-contained file with no script and no external reference, animated by CSS
/// keyframes in an inline style (so it plays as an `<img>`, a CSS background or inlined). It asks
/// for no frames: the geometry comes from the wave model and the motion from the loop plan, so at
/// time t it shows what the raster formats show at t. See `SVGDocument`; a live SVG's level follows
/// the page (`SVGLive`).
public final class SVGWriter: AnimationWriter {
    public let frames = FrameRequest.none
    private var text = ""
    public private(set) var notes: [String] = []
    /// Whether the level and label follow the page's `--level` (`SVGLive`).
    public let live: Bool

    public init(live: Bool = false) {
        self.live = live
    }

    public func begin(_ animation: Animation, raster: FrameRenderer?) throws(WaveError) {
        text = try SVGDocument(animation, label: VectorLabel(animation), live: live).text()
        notes.append("SVG: \(animation.plan.frameCount) planned frames as keyframes, \(text.utf8.count) bytes")
    }

    public func finish() throws(WaveError) -> [UInt8] { Array(text.utf8) }
}
