import WavePlatform

/// A point in output pixels (y grows downwards).
public struct PathPoint: Equatable, Sendable {
    public var x: Double
    public var y: Double

    public init(_ x: Double, _ y: Double) {
        self.x = x
        self.y = y
    }
}

/// One cubic Bézier segment, in output pixels.
public struct CubicSegment: Equatable, Sendable {
    public var start: PathPoint
    public var control1: PathPoint
    public var control2: PathPoint
    public var end: PathPoint

    public init(start: PathPoint, control1: PathPoint, control2: PathPoint, end: PathPoint) {
        self.start = start
        self.control1 = control1
        self.control2 = control2
        self.end = end
    }

    /// The point at parameter t (0…1).
    public func point(at t: Double) -> PathPoint {
        let m = 1 - t
        let a = m * m * m, b = 3 * m * m * t, c = 3 * m * t * t, d = t * t * t
        return PathPoint(a * start.x + b * control1.x + c * control2.x + d * end.x,
                         a * start.y + b * control1.y + c * control2.y + d * end.y)
    }
}

/// A wave surface `y(x) = base − amplitude × sin(2π((x − origin)/wavelength + phase))` traced with
/// cubic Béziers for vector outputs (SVG, Lottie): each segment matches the sine's height and slope
/// at both ends (cubic Hermite interpolation), with as many segments per wavelength as keep it
/// within a tolerance. The segments start and end on the sine, at multiples of a wavelength / n
/// from `origin`, so every wavelength is traced by the same n segments shifted.
public struct SineBeziers: Sendable {
    /// Crest height in output pixels.
    public let amplitude: Double
    /// Wavelength in output pixels.
    public let wavelength: Double
    /// Phase in turns (1 = one wavelength).
    public let phase: Double
    /// Where the phase is counted from, in output pixels.
    public let origin: Double
    /// The still level, in output pixels.
    public let base: Double
    /// Segments per wavelength.
    public let segmentsPerWavelength: Int

    /// The surface of one layer, traced within `tolerance` output pixels (measured vertically).
    public init(amplitude: Double, wavelength: Double, phase: Double, origin: Double, base: Double, tolerance: Double) {
        self.amplitude = amplitude
        self.wavelength = wavelength
        self.phase = phase
        self.origin = origin
        self.base = base
        segmentsPerWavelength = SineBeziers.segments(amplitude: amplitude, tolerance: tolerance)
    }

    /// The fewest segments per wavelength (at least 4) whose Hermite cubics stay within `tolerance`
    /// of a sine of `amplitude`. The error of cubic Hermite interpolation over a step h is at most
    /// h⁴/384 × max|y⁗|, which for the sine is amplitude × (2π/n)⁴ / 384 whatever the wavelength.
    public static func segments(amplitude: Double, tolerance: Double) -> Int {
        guard amplitude > 0, tolerance > 0 else { return 4 }
        let n = 2 * Double.pi * (amplitude / (384 * tolerance)).squareRoot().squareRoot()
        return max(4, Int(saturating: n.rounded(.up)))
    }

    /// The true surface height at x.
    public func height(atX x: Double) -> Double {
        base - amplitude * sin(angle(x))
    }

    private func angle(_ x: Double) -> Double {
        2 * Double.pi * ((x - origin) / wavelength + phase)
    }

    /// dy/dx of the surface at x.
    public func slope(atX x: Double) -> Double {
        -amplitude * 2 * Double.pi / wavelength * cos(angle(x))
    }

    /// The segments covering at least `lower`…`upper`, left to right: from the last segment
    /// boundary at or before `lower` to the first at or after `upper`.
    public func segments(from lower: Double, to upper: Double) -> [CubicSegment] {
        let step = wavelength / Double(segmentsPerWavelength)
        let first = Int(saturating: ((lower - origin) / step).rounded(.down))
        let last = max(first + 1, Int(saturating: ((upper - origin) / step).rounded(.up)))
        return (first..<last).map { k in
            let x0 = origin + Double(k) * step, x1 = origin + Double(k + 1) * step
            let y0 = height(atX: x0), y1 = height(atX: x1)
            let h = step / 3
            return CubicSegment(start: PathPoint(x0, y0), control1: PathPoint(x0 + h, y0 + h * slope(atX: x0)),
                                control2: PathPoint(x1 - h, y1 - h * slope(atX: x1)), end: PathPoint(x1, y1))
        }
    }

    /// The largest vertical distance between `segments` and the true surface, sampled at `samples`
    /// parameters per segment: the slow check beside the segment count's bound.
    public func deviation(of segments: [CubicSegment], samples: Int = 256) -> Double {
        var worst = 0.0
        for s in segments {
            for i in 0...samples {
                let p = s.point(at: Double(i) / Double(samples))
                worst = max(worst, abs(p.y - height(atX: p.x)))
            }
        }
        return worst
    }
}
