import WavePlatform

extension WaveModel {
    /// Every layer's surface at one frame:
    /// `y(x) = base[i] − amplitude × sin(2π((x − box.x)/wavelength + phase[i]))`, in output pixels.
    public struct Surfaces: Sendable {
        /// The wave layers, back first (amplitude and wavelength in output pixels).
        public let layers: [Layer]
        /// Where every layer's phase is counted from: the wave box's left edge, in output pixels.
        public let origin: Double
        /// Each layer's still level at this frame (y0 plus the layer's offset), in output pixels.
        public let base: [Double]
        /// Each layer's phase at this frame, in turns, 0 ≤ phase < 1.
        public let phase: [Double]

        init(model: WaveModel, frame: Int, of count: Int) {
            layers = model.config.layers
            origin = model.waveBox.x
            let u = Double(frame) / Double(count)
            let y0 = model.stillLevel(frame: frame, of: count)
            base = layers.map { y0 + $0.offset }
            phase = layers.indices.map { model.phase(layer: $0, loopFraction: u) }
        }

        init(model: WaveModel, loopFraction u: Double, frames count: Int) {
            layers = model.config.layers
            origin = model.waveBox.x
            let y0 = model.stillLevel(model.config.level.level(atLoopFraction: u, frames: count))
            base = layers.map { y0 + $0.offset }
            phase = layers.indices.map { model.phase(layer: $0, loopFraction: u) }
        }

        /// Layer `i`'s surface height at `x`, in output pixels (y grows downwards).
        @inline(__always)
        public func surface(layer i: Int, atX x: Double) -> Double {
            let l = layers[i]
            return base[i] - l.amplitude * sin(2 * Double.pi * ((x - origin) / l.wavelength + phase[i]))
        }

        /// dy/dx of layer `i`'s surface at `x` (y grows downwards, so a rising surface has a
        /// negative slope).
        public func slope(layer i: Int, atX x: Double) -> Double {
            let l = layers[i]
            let k = 2 * Double.pi / l.wavelength
            return -l.amplitude * k * cos(2 * Double.pi * ((x - origin) / l.wavelength + phase[i]))
        }

        /// Every layer's surface at `subsamples` evenly spaced sub-columns of each pixel column in
        /// `columns` (at x = column + (s + ½) / subsamples), with each column's extremes.
        ///
        /// The rasterizer's fast path: along a column the sine advances by a fixed rotation, seeded
        /// afresh with sin and cos at every column, so the heights are within rounding of
        /// `surface(layer:atX:)`. Four columns advance side by side on SIMD lanes, each lane with
        /// the operations `referenceSampleSubcolumns` does for its column: the same numbers.
        func sampleSubcolumns(columns: Range<Int>, subsamples n: Int) -> SurfaceSamples {
            let layerCount = layers.count, count = columns.count
            let x0 = columns.lowerBound
            var heights = [Double](repeating: 0, count: layerCount * count * n)
            var minY = [Double](repeating: .infinity, count: layerCount * count)
            var maxY = [Double](repeating: -.infinity, count: layerCount * count)
            heights.withUnsafeMutableBufferPointer { heights in
                minY.withUnsafeMutableBufferPointer { minY in
                    maxY.withUnsafeMutableBufferPointer { maxY in
                        for i in 0..<layerCount {
                            let base = self.base[i], amplitude = layers[i].amplitude
                            let k = 2 * Double.pi / layers[i].wavelength
                            let step = k / Double(n), stepSin = sin(step), stepCos = cos(step)
                            let turn = 2 * Double.pi * phase[i]
                            var c = 0
                            while c + 4 <= count {
                                var sine = SIMD4<Double>(), cosine = SIMD4<Double>()
                                for lane in 0..<4 {
                                    let x = Double(x0 + c + lane) + 0.5 / Double(n)
                                    let theta = k * (x - origin) + turn
                                    sine[lane] = sin(theta)
                                    cosine[lane] = cos(theta)
                                }
                                var lo = SIMD4<Double>(repeating: .infinity), hi = SIMD4<Double>(repeating: -.infinity)
                                let row = heights.baseAddress! + (i * count + c) * n
                                for s in 0..<n {
                                    let y = base - amplitude * sine
                                    row[s] = y[0]
                                    row[n + s] = y[1]
                                    row[2 * n + s] = y[2]
                                    row[3 * n + s] = y[3]
                                    lo.lower(to: y)
                                    hi.raise(to: y)
                                    (sine, cosine) = (sine * stepCos + cosine * stepSin, cosine * stepCos - sine * stepSin)
                                }
                                for lane in 0..<4 {
                                    minY[i * count + c + lane] = lo[lane]
                                    maxY[i * count + c + lane] = hi[lane]
                                }
                                c += 4
                            }
                            // The last columns one at a time.
                            while c < count {
                                (minY[i * count + c], maxY[i * count + c]) = sampleColumn(i, x0 + c, subsamples: n, into: heights,
                                                                                          at: (i * count + c) * n)
                                c += 1
                            }
                        }
                    }
                }
            }
            return SurfaceSamples(columns: columns, subsamples: n, layerCount: layerCount, heights: heights, minY: minY, maxY: maxY)
        }

        /// `sampleSubcolumns` one column at a time: the plain form it is tested against.
        func referenceSampleSubcolumns(columns: Range<Int>, subsamples n: Int) -> SurfaceSamples {
            let layerCount = layers.count, count = columns.count
            let x0 = columns.lowerBound
            var heights = [Double](repeating: 0, count: layerCount * count * n)
            var minY = [Double](repeating: .infinity, count: layerCount * count)
            var maxY = [Double](repeating: -.infinity, count: layerCount * count)
            heights.withUnsafeMutableBufferPointer { heights in
                for i in 0..<layerCount {
                    for c in 0..<count {
                        (minY[i * count + c], maxY[i * count + c]) = sampleColumn(i, x0 + c, subsamples: n, into: heights,
                                                                                  at: (i * count + c) * n)
                    }
                }
            }
            return SurfaceSamples(columns: columns, subsamples: n, layerCount: layerCount, heights: heights, minY: minY, maxY: maxY)
        }

        /// Layer `i`'s heights at the `n` sub-columns of pixel column `x`, written from
        /// `heights[row]` on: the sine seeded with sin and cos at the first, then advanced by a fixed
        /// rotation; with their least and most.
        @inline(__always)
        func sampleColumn(_ i: Int, _ x: Int, subsamples n: Int, into heights: UnsafeMutableBufferPointer<Double>,
                          at row: Int) -> (lo: Double, hi: Double) {
            let base = self.base[i], amplitude = layers[i].amplitude
            let k = 2 * Double.pi / layers[i].wavelength
            let step = k / Double(n), stepSin = sin(step), stepCos = cos(step)
            let theta = k * (Double(x) + 0.5 / Double(n) - origin) + 2 * Double.pi * phase[i]
            var sine = sin(theta), cosine = cos(theta)
            var lo = Double.infinity, hi = -Double.infinity
            for s in 0..<n {
                let y = base - amplitude * sine
                heights[row + s] = y
                lo = min(lo, y)
                hi = max(hi, y)
                (sine, cosine) = (sine * stepCos + cosine * stepSin, cosine * stepCos - sine * stepSin)
            }
            return (lo, hi)
        }

        /// Pixel columns between fresh seeds of the rotation in `pixelCenterHeights`.
        static let centerSeedInterval = 32

        /// Every layer's surface at the center (x + ½) of each pixel column in `columns`:
        /// [(x − columns.lowerBound) × layers + layer], in output pixels.
        ///
        /// Palette discovery's fast path: from column to column the sine advances by a fixed
        /// rotation, seeded afresh every `centerSeedInterval` columns.
        func pixelCenterHeights(columns: Range<Int>) -> [Double] {
            let layerCount = layers.count
            var heights = [Double](repeating: 0, count: columns.count * layerCount)
            var sines = [Double](repeating: 0, count: layerCount), cosines = sines, stepSin = sines, stepCos = sines
            for i in 0..<layerCount {
                let step = 2 * Double.pi / layers[i].wavelength
                (stepSin[i], stepCos[i]) = (sin(step), cos(step))
            }
            for x in columns {
                let c = x - columns.lowerBound
                if c % Surfaces.centerSeedInterval == 0 {
                    for i in 0..<layerCount {
                        let theta = 2 * Double.pi * ((Double(x) + 0.5 - origin) / layers[i].wavelength + phase[i])
                        (sines[i], cosines[i]) = (sin(theta), cos(theta))
                    }
                }
                for i in 0..<layerCount {
                    heights[c * layerCount + i] = base[i] - layers[i].amplitude * sines[i]
                    (sines[i], cosines[i]) = (sines[i] * stepCos[i] + cosines[i] * stepSin[i], cosines[i] * stepCos[i] - sines[i] * stepSin[i])
                }
            }
            return heights
        }
    }
}
