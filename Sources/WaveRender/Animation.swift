import WaveKit

/// An animation ready to write: the resolved preset, its loop plan, and its label's text already
/// rendered. Every writer reads the same value.
public struct Animation: Sendable {
    public var config: WaveConfig
    public var plan: LoopPlan
    /// The label's text coverage, placed on the canvas (nil without a label).
    public var label: LabelOverlay?

    public init(config: WaveConfig, plan: LoopPlan, label: LabelOverlay?) {
        self.config = config
        self.plan = plan
        self.label = label
    }
}
