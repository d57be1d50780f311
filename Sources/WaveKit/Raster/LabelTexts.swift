/// A label's text on every frame of a loop: the text follows the level of each frame
/// (`Label.text(frame:of:level:)`), and each distinct text is placed once, so a ramp from 0 to 1
/// holds at most 101 masks for `{percent}`. The frame renderer asks it for each frame's overlay.
public struct LabelTexts: Sendable {
    public let label: Label
    public let level: LevelAnimation
    /// Every text the loop shows, placed on the canvas.
    public let overlays: [String: LabelOverlay]

    /// `overlays` must hold the text of every frame the renderer will draw.
    public init(label: Label, level: LevelAnimation, overlays: [String: LabelOverlay]) {
        self.label = label
        self.level = level
        self.overlays = overlays
    }

    /// The text of frame `frame` of a loop of `count` frames.
    public func text(frame: Int, of count: Int) -> String {
        label.text(frame: frame, of: count, level: level)
    }

    /// The placed text of frame `frame` of a loop of `count` frames.
    public func overlay(frame: Int, of count: Int) -> LabelOverlay {
        let text = text(frame: frame, of: count)
        guard let overlay = overlays[text] else { preconditionFailure("no mask for the label text \"\(text)\"") }
        return overlay
    }

    /// The texts of a loop of each of `counts` frames, each once, in order of first appearance.
    public static func texts(of label: Label, level: LevelAnimation, frameCounts counts: [Int]) -> [String] {
        var seen = Set<String>()
        var out: [String] = []
        for n in counts {
            for k in 0..<n {
                let t = label.text(frame: k, of: n, level: level)
                if seen.insert(t).inserted { out.append(t) }
            }
        }
        return out
    }
}
