extension Int {
    /// `value` truncated toward zero like `Int(_:)`, but clamped to `Int`'s range instead of
    /// trapping: +∞ and values above `Int.max` give `Int.max`, −∞ and values below `Int.min` give
    /// `Int.min`, NaN gives 0. Use it wherever a number from a document or the command line (or
    /// one computed from such numbers) becomes an `Int` before its range is checked.
    public init(saturating value: Double) {
        if value.isNaN {
            self = 0
        } else if value >= 9_223_372_036_854_775_808.0 {
            self = .max
        } else if value < -9_223_372_036_854_775_808.0 {
            self = .min
        } else {
            self = Int(value)
        }
    }
}
