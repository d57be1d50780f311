import WaveKit

/// Lottie (Bodymovin JSON) for lottie-web, lottie-android, lottie-ios and rlottie: vector shape
/// layers moved by keyframes, one loop of the planned frames (`ip` 0 to `op` = the frame count at
/// the planned frame rate). It asks for no frames: the geometry comes from the wave model and the
/// motion from the loop plan, shared with the SVG writer. See `LottieDocument`.
public final class LottieWriter: AnimationWriter {
    public let frames = FrameRequest.none
    private var text = ""
    public private(set) var notes: [String] = []

    public init() {}

    public func begin(_ animation: Animation, raster: FrameRenderer?) throws(WaveError) {
        let label = try VectorLabel(animation)
        text = try LottieDocument(animation, label: label).json().compactText + "\n"
        notes.append("Lottie: \(animation.plan.frameCount) frames at \(NumberText.decimal(animation.plan.fps, places: 3)) fps, \(label.texts.count > 1 ? "\(label.texts.count) label texts, " : "")\(text.utf8.count) bytes")
    }

    public func finish() throws(WaveError) -> [UInt8] { Array(text.utf8) }
}
