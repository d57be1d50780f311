import WavePlatform

extension LevelAnimation {
    /// The level at loop fraction `u` (0…1) of a loop of `frameCount` frames, between frames as well
    /// as on them: at u = frame / frameCount it is `level(frame:of:)`. A one-way ramp reaches its
    /// end at the last frame (u = (frameCount − 1) / frameCount) and holds it until the loop ends.
    /// Vector outputs, which move continuously, follow this.
    public func level(atLoopFraction u: Double, frames frameCount: Int) -> Double {
        var p = 1.0
        if case let .ramp(_, _, _, pingpong) = self {
            if pingpong {
                p = u < 0.5 ? 2 * u : 2 - 2 * u
            } else if frameCount > 1 {
                p = min(1, u * Double(frameCount) / Double(frameCount - 1))
            }
        }
        return level(rampProgress: p, tideAngle: 2 * Double.pi * u)
    }

    /// Whether the level changes over the loop.
    public var moves: Bool {
        switch self {
        case .still: return false
        case let .ramp(from, to, _, _): return from != to
        case let .tide(_, tide): return tide != 0
        }
    }
}
