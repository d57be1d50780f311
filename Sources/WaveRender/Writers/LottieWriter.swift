import WaveKit
import WaveText

/// Lottie (Bodymovin JSON) for lottie-web, lottie-android, lottie-ios and rlottie: vector shape
/// layers moved by keyframes, one loop of the planned frames (`ip` 0 to `op` = the frame count at
/// the planned frame rate). It asks for no frames: the geometry comes from the wave model and the
/// motion from the loop plan, shared with the SVG writer. See `LottieDocument`.
public final class LottieWriter: AnimationWriter {
    public let frames = FrameRequest.none
    private var text = ""
    public private(set) var notes: [String] = []

    public init() {}

    public func begin(_ animation: Animation, raster: FrameRenderer?) throws(RenderError) {
        // One text for the whole loop: the first frame's. (A label whose text follows a moving
        // level is drawn per frame by the raster and SVG writers; the Lottie keeps its first text.)
        var first: (text: String, overlay: LabelOverlay, outline: TextOutline)?
        var distinct = 0
        if let texts = animation.label {
            let n = animation.plan.frameCount
            let text = texts.text(frame: 0, of: n)
            if let overlay = texts.overlays[text], let outline = try LabelOverlay.outlines(for: animation.config, text: text) {
                first = (text, overlay, outline)
            }
            distinct = Set((0..<n).map { texts.text(frame: $0, of: n) }).count
        }
        text = try LottieDocument(animation, label: first.map { ($0.overlay, $0.outline) }).json().compactText + "\n"
        notes.append("Lottie: \(animation.plan.frameCount) frames at \(NumberText.decimal(animation.plan.fps, places: 3)) fps, \(text.utf8.count) bytes")
        if distinct > 1, let first {
            notes.append("Lottie: the label shows \"\(first.text)\" throughout; its \(distinct) texts over the loop are drawn per frame only in GIF, WebP, APNG and SVG")
        }
    }

    public func finish() throws(RenderError) -> [UInt8] { Array(text.utf8) }
}
