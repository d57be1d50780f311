/// A live output's settings (`"live"` in a preset): how a live SVG eases to a level the page sets.
public struct LiveOptions: Equatable, Sendable {
    /// Seconds a change of the page's `--level` takes to reach the new level (0: at once).
    public var transition: Double = 0.6
    /// The timing curve of that change.
    public var easing: Easing = .easeOut

    /// The CSS timing keywords a live transition may use.
    public enum Easing: String, Equatable, Sendable, CaseIterable {
        case linear, ease
        case easeIn = "ease-in"
        case easeOut = "ease-out"
        case easeInOut = "ease-in-out"
    }

    public init(transition: Double = 0.6, easing: Easing = .easeOut) {
        self.transition = transition
        self.easing = easing
    }
}

extension WaveConfig {
    /// Keys of the `live` object.
    public static let liveKeys = ["transition", "easing"]
    /// The longest `live.transition`, in seconds.
    public static let maximumLiveTransition = 60.0

    /// Reads the `live` object (defaults without one).
    static func decodeLive(_ node: JSONNode?, reader r: inout PresetReader) -> LiveOptions {
        var live = LiveOptions()
        guard let node, r.object(node, at: "live") else { return live }
        r.checkKeys(node, at: "live", allowed: liveKeys)
        live.transition = r.number(node["transition"], at: "live.transition", default: live.transition, in: 0...maximumLiveTransition)
        live.easing = r.keyword(node["easing"], at: "live.easing", default: live.easing)
        return live
    }
}
