import WavePlatform

/// A rider image prepared for drawing: scaled once to its drawn size with an area filter in
/// premultiplied alpha, then rotated and placed each frame with bilinear sampling.
///
/// A class, not a struct: its arrays are shared by reference, so handing the rider to each pixel
/// (`SceneRaster.rider!`) retains one object rather than copying a value of many arrays.
final class RiderRaster: Sendable {
    let rider: Rider
    /// Drawn size in whole pixels.
    let width: Int
    let height: Int
    /// Premultiplied pixels at the drawn size, row by row.
    let pixels: [PremultipliedColor]
    /// `pixels` as r, g, b, a lanes, for `sample`.
    let lanes: [SIMD4<Double>]
    /// Per stored pixel: whether any pixel near enough to reach a sample taken there is not
    /// transparent. Where it is false the rider contributes nothing and is not sampled.
    let reach: [Bool]
    /// Stored pixels per canvas pixel, across and down.
    let kx: Double
    let ky: Double
    /// The anchor's offset from the image's top-left corner, in canvas pixels.
    let ax: Double
    let ay: Double
    /// How far, in stored pixels, a pixel's samples reach beyond it (the growth of `reach`).
    let reachRadius: Int
    /// Per stored pixel: whether every stored pixel within `uniformRadius` of it (a square, all on
    /// the image) has its very value. A canvas pixel whose center falls on such a pixel takes all
    /// 36 bilinear taps there (`uniformPixel`).
    let uniform: [Bool]
    /// How far, in stored pixels, the bilinear taps of a pixel's samples lie from the stored pixel
    /// under its center. A sample lies at most a third of a canvas pixel from the center on each
    /// axis, √2/3 < 0.48 turned, so its u (and v) within d = 0.48 × max(kx, ky) of the center's u_c;
    /// its taps are ⌊u − ½⌋ and one more, from ⌊u_c⌋ − ⌈½ + d⌉ to ⌊u_c⌋ + 1 + ⌊½ + d⌋, within
    /// ⌊½ + d⌋ + 1 of ⌊u_c⌋ (1 for a rider drawn no larger than its image).
    let uniformRadius: Int

    init(_ rider: Rider) {
        self.rider = rider
        // Shrink once with an area filter; when enlarging, keep the original and let the per-frame
        // bilinear sampling do all the interpolation.
        width = min(rider.image.width, max(1, Int(saturating: rider.width.rounded())))
        height = min(rider.image.height, max(1, Int(saturating: rider.height.rounded())))
        pixels = RiderRaster.resample(rider.image, width: width, height: height)
        lanes = pixels.map { SIMD4($0.r, $0.g, $0.b, $0.a) }
        kx = Double(width) / rider.width
        ky = Double(height) / rider.height
        ax = rider.anchor.x * rider.width
        ay = rider.anchor.y * rider.height
        // A canvas pixel's samples lie within half a canvas pixel (times √2 when turned) of its
        // center, and bilinear taps one stored pixel further.
        reachRadius = Int(saturating: (0.75 * max(kx, ky)).rounded(.up)) + 2
        reach = RiderRaster.dilate(pixels.map { $0.a > 0 }, width: width, height: height, radius: reachRadius)
        uniformRadius = Int(saturating: (0.5 + 0.48 * max(kx, ky)).rounded(.down)) + 1
        uniform = RiderRaster.uniformSquares(lanes, width: width, height: height, radius: uniformRadius)
    }

    /// Per pixel of a `width` × `height` image: whether the square of `radius` around it lies on the
    /// image and holds only that pixel's value.
    static func uniformSquares(_ lanes: [SIMD4<Double>], width: Int, height: Int, radius: Int) -> [Bool] {
        var out = [Bool](repeating: false, count: lanes.count)
        guard width > 2 * radius, height > 2 * radius else { return out }
        for y in radius..<(height - radius) {
            for x in radius..<(width - radius) {
                let v = lanes[y * width + x]
                var same = true
                for yy in (y - radius)...(y + radius) where same {
                    for xx in (x - radius)...(x + radius) where lanes[yy * width + xx] != v {
                        same = false
                        break
                    }
                }
                out[y * width + x] = same
            }
        }
        return out
    }

    /// The stored pixel under canvas pixel (px, py)'s center, when every tap of its samples lands
    /// on that pixel's value (`uniform`, over `uniformRadius`); nil otherwise.
    @inline(__always)
    func uniformPixel(_ px: Int, _ py: Int, _ p: Placement) -> Int? {
        let dx = Double(px) + 0.5 - p.x, dy = Double(py) + 0.5 - p.y
        let u = (p.cosine * dx + p.sine * dy + ax) * kx
        let v = (-p.sine * dx + p.cosine * dy + ay) * ky
        guard u >= 0, v >= 0, u < Double(width), v < Double(height) else { return nil }
        let i = Int(v) * width + Int(u)
        return uniform[i] ? i : nil
    }

    /// `mask` grown by `radius` stored pixels in every direction (a square, in two passes).
    static func dilate(_ mask: [Bool], width: Int, height: Int, radius: Int) -> [Bool] {
        var rows = [Bool](repeating: false, count: mask.count)
        for y in 0..<height {
            for x in 0..<width where mask[y * width + x] {
                for xx in max(0, x - radius)...min(width - 1, x + radius) { rows[y * width + xx] = true }
            }
        }
        var out = [Bool](repeating: false, count: mask.count)
        for y in 0..<height {
            for x in 0..<width where rows[y * width + x] {
                for yy in max(0, y - radius)...min(height - 1, y + radius) { out[yy * width + x] = true }
            }
        }
        return out
    }

    /// Whether the rider may show over canvas pixel (px, py) in this placement.
    @inline(__always)
    func covers(_ px: Int, _ py: Int, _ p: Placement) -> Bool {
        let dx = Double(px) + 0.5 - p.x, dy = Double(py) + 0.5 - p.y
        let u = (p.cosine * dx + p.sine * dy + ax) * kx
        let v = (-p.sine * dx + p.cosine * dy + ay) * ky
        guard u >= 0, v >= 0, u < Double(width), v < Double(height) else {
            // Outside the image: only its margin can still be reached by a sample.
            let cu = min(max(Int(u), 0), width - 1), cv = min(max(Int(v), 0), height - 1)
            let margin = Double(reachRadius)
            guard u > -margin, v > -margin, u < Double(width) + margin, v < Double(height) + margin else { return false }
            return reach[cv * width + cu]
        }
        return reach[Int(v) * width + Int(u)]
    }

    /// Shrinking in premultiplied alpha: each target pixel averages the source area it covers.
    static func resample(_ image: RiderImage, width: Int, height: Int) -> [PremultipliedColor] {
        let sx = Double(image.width) / Double(width), sy = Double(image.height) / Double(height)
        func source(_ x: Int, _ y: Int) -> PremultipliedColor {
            let i = (y * image.width + x) * 4
            return PremultipliedColor(RGBA(image.rgba[i], image.rgba[i + 1], image.rgba[i + 2], image.rgba[i + 3]))
        }
        var out = [PremultipliedColor](repeating: .clear, count: width * height)
        for ty in 0..<height {
            let y0 = Double(ty) * sy, y1 = Double(ty + 1) * sy
            for tx in 0..<width {
                let x0 = Double(tx) * sx, x1 = Double(tx + 1) * sx
                var sum = PremultipliedColor.clear
                var total = 0.0
                for y in Int(y0)..<min(image.height, Int(y1.rounded(.up))) {
                    let wy = min(y1, Double(y + 1)) - max(y0, Double(y))
                    guard wy > 0 else { continue }
                    for x in Int(x0)..<min(image.width, Int(x1.rounded(.up))) {
                        let w = (min(x1, Double(x + 1)) - max(x0, Double(x))) * wy
                        guard w > 0 else { continue }
                        let c = source(x, y)
                        sum = PremultipliedColor(r: sum.r + c.r * w, g: sum.g + c.g * w, b: sum.b + c.b * w, a: sum.a + c.a * w)
                        total += w
                    }
                }
                if total > 0 { out[ty * width + tx] = PremultipliedColor(r: sum.r / total, g: sum.g / total, b: sum.b / total, a: sum.a / total) }
            }
        }
        return out
    }

    /// Where the rider is in one frame.
    struct Placement {
        /// The anchor point on the canvas.
        var x: Double
        var y: Double
        /// Rotation in radians, clockwise on screen, with its cosine and sine.
        var angle: Double
        var cosine: Double
        var sine: Double
        /// Canvas pixels the rider may touch.
        var columns: Range<Int>
        var rows: Range<Int>
    }

    /// Puts the anchor on the ridden layer's surface and turns the image with its slope; `surfaces`
    /// and `box` are in the wave frame, and the placement on the canvas, the image upright there.
    func place(on surfaces: WaveModel.Surfaces, box: Rect, orientation: WaveOrientation) -> Placement {
        let pose = rider.pose(on: surfaces, box: box)
        let (x, y) = orientation.canvasPoint(pose.x, pose.y)
        let angle = orientation.canvasAngle(pose.angle)
        let canvasWidth = orientation.canvasWidth, canvasHeight = orientation.canvasHeight
        let c = cos(angle), s = sin(angle)
        var minX = Double.infinity, maxX = -Double.infinity, minY = Double.infinity, maxY = -Double.infinity
        for (cx, cy) in [(-ax, -ay), (rider.width - ax, -ay), (-ax, rider.height - ay), (rider.width - ax, rider.height - ay)] {
            let px = x + c * cx - s * cy, py = y + s * cx + c * cy
            minX = min(minX, px); maxX = max(maxX, px); minY = min(minY, py); maxY = max(maxY, py)
        }
        return Placement(x: x, y: y, angle: angle, cosine: c, sine: s,
                         columns: RiderRaster.pixels(from: minX, to: maxX, within: canvasWidth),
                         rows: RiderRaster.pixels(from: minY, to: maxY, within: canvasHeight))
    }

    /// The canvas pixels from `low` to `high` (widened by one pixel each side) that lie in
    /// `0..<limit`; empty (`0..<0`) when the span is wholly off the canvas or not finite, so a rider
    /// placed anywhere, on the canvas or not, is simply not drawn where the canvas is not.
    static func pixels(from low: Double, to high: Double, within limit: Int) -> Range<Int> {
        guard low.isFinite, high.isFinite, limit > 0 else { return 0..<0 }
        let first = max(0, low.rounded(.down) - 1), end = min(Double(limit), high.rounded(.up) + 1)
        guard first < end else { return 0..<0 }
        return Int(first)..<Int(end)
    }

    /// Sample points per pixel: a 3 × 3 grid.
    static let samplePoints: [(Double, Double)] = (0..<9).map { (i: Int) -> (Double, Double) in
        let x = (Double(i % 3) + 0.5) / 3
        let y = (Double(i / 3) + 0.5) / 3
        return (x, y)
    }

    /// The rider's premultiplied color over canvas pixel (px, py), averaged over 3 × 3 points: the
    /// same arithmetic, operation for operation, as `referenceSample`, on raw channel lanes (each
    /// lane's sums and products are the same IEEE operations, so the result is bit for bit the same).
    func sample(_ px: Int, _ py: Int, _ p: Placement) -> PremultipliedColor {
        if let i = uniformPixel(px, py, p) {
            // Every tap is lanes[i]: each bilinear blend a + (a − a) × f is a itself, and the
            // nine samples add up as below.
            let q = lanes[i] / 9
            var sum = SIMD4<Double>(repeating: 0)
            for _ in 0..<9 { sum = sum + q }
            return PremultipliedColor(r: sum[0], g: sum[1], b: sum[2], a: sum[3])
        }
        let c = p.cosine, s = p.sine
        let width = self.width, height = self.height, ax = self.ax, ay = self.ay, kx = self.kx, ky = self.ky
        let x = Double(px), y = Double(py)
        return lanes.withUnsafeBufferPointer { lanes -> PremultipliedColor in
            @inline(__always) func at(_ x: Int, _ y: Int) -> SIMD4<Double> {
                guard x >= 0, y >= 0, x < width, y < height else { return SIMD4(repeating: 0) }
                return lanes[y * width + x]
            }
            /// The bilinear sample at offset (ox, oy) of the pixel, divided by 9.
            @inline(__always) func tap(_ ox: Double, _ oy: Double) -> SIMD4<Double> {
                let dx = x + ox - p.x, dy = y + oy - p.y
                let u = (c * dx + s * dy + ax) * kx - 0.5, v = (-s * dx + c * dy + ay) * ky - 0.5
                let x0 = Int(u.rounded(.down)), y0 = Int(v.rounded(.down))
                let fx = u - Double(x0), fy = v - Double(y0)
                let a: SIMD4<Double>, b: SIMD4<Double>, d: SIMD4<Double>, e: SIMD4<Double>
                if x0 >= 0, y0 >= 0, x0 + 1 < width, y0 + 1 < height {
                    let i = y0 * width + x0
                    (a, b, d, e) = (lanes[i], lanes[i + 1], lanes[i + width], lanes[i + width + 1])
                } else {
                    (a, b, d, e) = (at(x0, y0), at(x0 + 1, y0), at(x0, y0 + 1), at(x0 + 1, y0 + 1))
                }
                let top = a + (b - a) * fx, bottom = d + (e - d) * fx
                let q = top + (bottom - top) * fy
                return q / 9
            }
            // The nine taps are independent (taken first, so that they overlap); summed in the
            // order of `sampleOffsets`, row after row, as `referenceSample` adds them.
            let o0 = 0.5 / 3, o1 = 1.5 / 3, o2 = 2.5 / 3
            let t0 = tap(o0, o0), t1 = tap(o1, o0), t2 = tap(o2, o0)
            let t3 = tap(o0, o1), t4 = tap(o1, o1), t5 = tap(o2, o1)
            let t6 = tap(o0, o2), t7 = tap(o1, o2), t8 = tap(o2, o2)
            var sum = SIMD4<Double>(repeating: 0)
            sum = sum + t0; sum = sum + t1; sum = sum + t2
            sum = sum + t3; sum = sum + t4; sum = sum + t5
            sum = sum + t6; sum = sum + t7; sum = sum + t8
            return PremultipliedColor(r: sum[0], g: sum[1], b: sum[2], a: sum[3])
        }
    }

    /// The sample offsets along each axis: a 3 × 3 grid's, row after row as `samplePoints`.
    static let sampleOffsets: [Double] = (0..<3).map { (Double($0) + 0.5) / 3 }

    /// The rider's premultiplied color over canvas pixel (px, py), averaged over 3 × 3 points: the
    /// plain form that `sample` must equal.
    func referenceSample(_ px: Int, _ py: Int, _ p: Placement) -> PremultipliedColor {
        let c = p.cosine, s = p.sine
        var sum = PremultipliedColor.clear
        for (ox, oy) in RiderRaster.samplePoints {
            let dx = Double(px) + ox - p.x, dy = Double(py) + oy - p.y
            // Undo the rotation, then move from the anchor to image coordinates.
            let u = (c * dx + s * dy + ax) * kx, v = (-s * dx + c * dy + ay) * ky
            let q = bilinear(u - 0.5, v - 0.5)
            sum = PremultipliedColor(r: sum.r + q.r / 9, g: sum.g + q.g / 9, b: sum.b + q.b / 9, a: sum.a + q.a / 9)
        }
        return sum
    }

    private func bilinear(_ u: Double, _ v: Double) -> PremultipliedColor {
        let x0 = Int(u.rounded(.down)), y0 = Int(v.rounded(.down))
        let fx = u - Double(x0), fy = v - Double(y0)
        func at(_ x: Int, _ y: Int) -> PremultipliedColor {
            guard x >= 0, y >= 0, x < width, y < height else { return .clear }
            return pixels[y * width + x]
        }
        let top = at(x0, y0).mixed(with: at(x0 + 1, y0), fx)
        let bottom = at(x0, y0 + 1).mixed(with: at(x0 + 1, y0 + 1), fx)
        return top.mixed(with: bottom, fy)
    }
}
