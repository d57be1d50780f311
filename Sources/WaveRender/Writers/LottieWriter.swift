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
        // Each distinct text of the label, in order of first appearance, and each frame's.
        var label: [(overlay: LabelOverlay, outline: TextOutline)] = []
        var seen: [String: Int] = [:]
        var textOfFrame: [Int] = []
        if let texts = animation.label {
            let n = animation.plan.frameCount
            for k in 0..<n {
                let text = texts.text(frame: k, of: n)
                if let i = seen[text] { textOfFrame.append(i); continue }
                guard let overlay = texts.overlays[text], let outline = try LabelOverlay.outlines(for: animation.config, text: text) else { continue }
                seen[text] = label.count
                textOfFrame.append(label.count)
                label.append((overlay, outline))
            }
        }
        text = try LottieDocument(animation, label: label, textOfFrame: textOfFrame).json().compactText + "\n"
        notes.append("Lottie: \(animation.plan.frameCount) frames at \(NumberText.decimal(animation.plan.fps, places: 3)) fps, \(label.count > 1 ? "\(label.count) label texts, " : "")\(text.utf8.count) bytes")
    }

    public func finish() throws(RenderError) -> [UInt8] { Array(text.utf8) }
}
