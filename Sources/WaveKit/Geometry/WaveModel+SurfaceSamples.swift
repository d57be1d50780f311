extension WaveModel {
    /// Every layer's surface at evenly spaced sub-columns of a range of pixel columns in one frame
    /// (made by `Surfaces.sampleSubcolumns`): what the rasterizer knows of the surfaces. Heights are
    /// in output pixels; `column` arguments count from `columns.lowerBound`.
    struct SurfaceSamples {
        /// The pixel columns sampled.
        let columns: Range<Int>
        /// Sub-columns per pixel column.
        let subsamples: Int
        let layerCount: Int
        /// Heights at every sub-column, per layer: [(layer × columns + column) × subsamples + s].
        let heights: [Double]
        /// Each column's highest and lowest surface point, per layer: [layer × columns + column].
        let minY: [Double]
        let maxY: [Double]

        /// `layers(column:top:bottom:)` found no surface crossing the rows.
        static let noSurface = -1
        /// `layers(column:top:bottom:)` found more than one surface crossing the rows.
        static let severalSurfaces = -2

        /// Layer `layer`'s height at sub-column `s` of column `column`.
        @inline(__always)
        func height(layer: Int, column: Int, subcolumn s: Int) -> Double {
            heights[(layer * columns.count + column) * subsamples + s]
        }

        /// The highest and lowest point of any surface in column `column`.
        @inline(__always)
        func extent(column c: Int) -> (top: Double, bottom: Double) {
            let count = columns.count
            var lo = Double.infinity, hi = -Double.infinity
            for i in 0..<layerCount {
                lo = min(lo, minY[i * count + c])
                hi = max(hi, maxY[i * count + c])
            }
            return (lo, hi)
        }

        /// Which layers cover the rows `top`…`bottom` of column `c` entirely (bit i = layer i), and
        /// which layer's surface crosses them: its index, `noSurface` or `severalSurfaces`.
        @inline(__always)
        func layers(column c: Int, top: Double, bottom: Double) -> (mask: Int, crossing: Int) {
            let count = columns.count
            var mask = 0, crossing = SurfaceSamples.noSurface
            for i in 0..<layerCount {
                let k = i * count + c
                if maxY[k] <= top { mask |= 1 << i } else if minY[k] < bottom {
                    crossing = crossing == SurfaceSamples.noSurface ? i : SurfaceSamples.severalSurfaces
                }
            }
            return (mask, crossing)
        }

        /// The part of a pixel of column `c` whose bottom edge is at `bottom` that lies below layer
        /// `layer`'s surface, averaged over the sub-columns (0…1), for a surface that crosses the
        /// pixel.
        ///
        /// With 16 sub-columns the parts are clamped on SIMD lanes, without a branch a sub-column,
        /// and added in order as `plainFractionBelow` adds them: the same number.
        @inline(__always)
        func fractionBelow(layer: Int, column c: Int, bottom: Double) -> Double {
            guard subsamples == 16 else { return plainFractionBelow(layer: layer, column: c, bottom: bottom) }
            let base = (layer * columns.count + c) * 16
            precondition(base >= 0 && base + 16 <= heights.count, "sub-column out of range")
            return heights.withUnsafeBufferPointer { h -> Double in
                let p = UnsafeRawPointer(h.baseAddress! + base)
                var covered = 0.0
                for quarter in 0..<4 {
                    let d = SIMD4<Double>(repeating: bottom) - p.loadUnaligned(fromByteOffset: 32 * quarter, as: SIMD4<Double>.self)
                    var t = d.replacing(with: 0, where: d .< 0)
                    t.replace(with: 1, where: t .> 1)
                    covered += t[0]
                    covered += t[1]
                    covered += t[2]
                    covered += t[3]
                }
                return covered / 16
            }
        }

        /// `fractionBelow` a sub-column at a time: the plain form it is tested against.
        func plainFractionBelow(layer: Int, column c: Int, bottom: Double) -> Double {
            let n = subsamples
            let base = (layer * columns.count + c) * n
            var covered = 0.0
            for s in 0..<n { covered += min(1, max(0, bottom - heights[base + s])) }
            return covered / Double(n)
        }
    }
}
