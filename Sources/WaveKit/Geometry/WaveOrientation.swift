/// How the wave frame lies on the canvas. The wave model draws every fill direction as `up`: in
/// its frame, u runs along the front and v across it (growing into the water, as y does for `up`),
/// and the box fills from its bottom edge. This maps that frame onto the canvas by a quarter turn
/// (`right`), a mirror (`down`, `left`) or nothing (`up`), so each pixel of the one is a whole
/// pixel of the other.
///
/// Canvas (x, y) from wave (u, v), with the canvas W × H output pixels:
/// up (u, v); down (u, H − v); right (W − v, u); left (v, u).
public struct WaveOrientation: Equatable, Sendable {
    /// The side the water fills toward.
    public let direction: FillDirection
    /// The canvas, in output pixels.
    public let canvasWidth: Int
    public let canvasHeight: Int

    public init(direction: FillDirection, canvasWidth: Int, canvasHeight: Int) {
        self.direction = direction
        self.canvasWidth = canvasWidth
        self.canvasHeight = canvasHeight
    }

    /// Whether the wave frame is the canvas itself (`up`).
    public var isIdentity: Bool { direction == .up }

    /// The wave frame's size in whole pixels: the canvas's, turned for a sideways direction.
    public var width: Int { direction.sideways ? canvasHeight : canvasWidth }
    public var height: Int { direction.sideways ? canvasWidth : canvasHeight }

    /// The canvas point of wave-frame point (u, v), in output pixels.
    @inline(__always)
    public func canvasPoint(_ u: Double, _ v: Double) -> (x: Double, y: Double) {
        let m = matrix
        return (m.a * u + m.c * v + m.e, m.b * u + m.d * v + m.f)
    }

    /// The wave-frame point of canvas point (x, y), in output pixels.
    @inline(__always)
    public func wavePoint(_ x: Double, _ y: Double) -> (u: Double, v: Double) {
        switch direction {
        case .up: return (x, y)
        case .down: return (x, Double(canvasHeight) - y)
        case .right: return (y, Double(canvasWidth) - x)
        case .left: return (y, x)
        }
    }

    /// The affine map from the wave frame to the canvas, as SVG's `matrix(a b c d e f)` writes it:
    /// x = a·u + c·v + e, y = b·u + d·v + f.
    public var matrix: (a: Double, b: Double, c: Double, d: Double, e: Double, f: Double) {
        switch direction {
        case .up: return (1, 0, 0, 1, 0, 0)
        case .down: return (1, 0, 0, -1, 0, Double(canvasHeight))
        case .right: return (0, 1, -1, 0, Double(canvasWidth), 0)
        case .left: return (0, 1, 1, 0, 0, 0)
        }
    }

    /// The canvas pixel that wave-frame pixel (i, j) is.
    @inline(__always)
    public func canvasPixel(_ i: Int, _ j: Int) -> (x: Int, y: Int) {
        switch direction {
        case .up: return (i, j)
        case .down: return (i, canvasHeight - 1 - j)
        case .right: return (canvasWidth - 1 - j, i)
        case .left: return (j, i)
        }
    }

    /// The wave-frame pixel that canvas pixel (x, y) is.
    @inline(__always)
    public func wavePixel(_ x: Int, _ y: Int) -> (i: Int, j: Int) {
        switch direction {
        case .up: return (x, y)
        case .down: return (x, canvasHeight - 1 - y)
        case .right: return (y, canvasWidth - 1 - x)
        case .left: return (y, x)
        }
    }

    /// The wave-frame rectangle covering canvas rectangle `r`.
    public func waveRect(_ r: Rect) -> Rect {
        let a = wavePoint(r.x, r.y), b = wavePoint(r.maxX, r.maxY)
        return Rect(x: min(a.u, b.u), y: min(a.v, b.v), width: abs(b.u - a.u), height: abs(b.v - a.v))
    }

    /// The wave-frame pixels (rows, columns) covering the canvas pixels `rows` × `columns`.
    public func wavePixels(rows: Range<Int>, columns: Range<Int>) -> (rows: Range<Int>, columns: Range<Int>) {
        guard !rows.isEmpty, !columns.isEmpty else { return (0..<0, 0..<0) }
        let a = wavePixel(columns.lowerBound, rows.lowerBound), b = wavePixel(columns.upperBound - 1, rows.upperBound - 1)
        return (min(a.j, b.j)..<(max(a.j, b.j) + 1), min(a.i, b.i)..<(max(a.i, b.i) + 1))
    }

    /// A rotation on the wave frame's surface (radians, clockwise on screen) as the canvas shows an
    /// upright rider: mirrored for `down`, none where the front stands upright.
    public func canvasAngle(_ angle: Double) -> Double {
        switch direction {
        case .up: return angle
        case .down: return -angle
        case .left, .right: return 0
        }
    }

    /// `pixels` (`width` × `height` of the wave frame, row by row, `bytesPerPixel` bytes each, as
    /// straight RGBA has 4) laid out on the canvas.
    public func canvasPixels(_ pixels: [UInt8], bytesPerPixel: Int) -> [UInt8] {
        guard !isIdentity, !pixels.isEmpty else { return pixels }
        guard bytesPerPixel != 1 else { return canvasPixels(pixels) }
        var out = pixels
        let w = width
        for j in 0..<height {
            for i in 0..<w {
                let (x, y) = canvasPixel(i, j)
                let from = (j * w + i) * bytesPerPixel, to = (y * canvasWidth + x) * bytesPerPixel
                for k in 0..<bytesPerPixel { out[to + k] = pixels[from + k] }
            }
        }
        return out
    }

    /// `pixels` (`width` × `height` of the wave frame, row by row) laid out on the canvas.
    public func canvasPixels<T>(_ pixels: [T]) -> [T] {
        guard !isIdentity, !pixels.isEmpty else { return pixels }
        var out = pixels
        let w = width
        for j in 0..<height {
            for i in 0..<w {
                let (x, y) = canvasPixel(i, j)
                out[y * canvasWidth + x] = pixels[j * w + i]
            }
        }
        return out
    }
}
