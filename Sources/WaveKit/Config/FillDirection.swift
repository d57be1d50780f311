/// The side of the box the water fills toward (`"direction"`): `up` fills from the bottom, as a
/// glass does, `right` from the left edge, as a progress bar does. The waves always run along the
/// front, the water's edge facing that side.
public enum FillDirection: String, Equatable, Sendable, CaseIterable {
    case up, down, left, right

    /// Whether the front stands upright (the water fills toward the left or right side).
    public var sideways: Bool { self == .left || self == .right }
}
