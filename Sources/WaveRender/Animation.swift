import WaveKit

/// An animation ready to write: the resolved preset, its loop plan, and its label's texts already
/// rendered. Every writer reads the same value.
public struct Animation: Sendable {
    public var config: WaveConfig
    public var plan: LoopPlan
    /// The label's text coverage for every text its frames show, placed on the canvas (nil without a label).
    public var label: LabelTexts?
    /// What the preset should know before it is shown (a label that does not fit), one line each.
    public var warnings: [String]

    public init(config: WaveConfig, plan: LoopPlan, label: LabelTexts?, warnings: [String] = []) {
        self.config = config
        self.plan = plan
        self.label = label
        self.warnings = warnings
    }
}
