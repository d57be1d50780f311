extension SIMD4 where Scalar == Double {
    /// `self = pointwiseMin(self, y)` as the standard library defines it (per lane, y < self ? y :
    /// self), taken as lane selects: `pointwiseMin` compiles to a compare and branch a lane.
    @inline(__always)
    mutating func lower(to y: Self) {
        replace(with: y, where: y .< self)
    }

    /// `self = pointwiseMax(self, y)` as the standard library defines it (per lane, y >= self ? y :
    /// self), taken as lane selects.
    @inline(__always)
    mutating func raise(to y: Self) {
        replace(with: y, where: y .>= self)
    }
}
