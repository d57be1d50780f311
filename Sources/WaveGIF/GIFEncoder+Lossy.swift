internal import CGIF

extension GIFEncoder {
    /// The error of showing each table position where each palette index belongs: the largest
    /// channel difference of the colors as a GIF shows them (premultiplied RGBA: a palette color
    /// opaque, the transparent index 0,0,0,0), 0…255; 255 for positions past the palette.
    static func errorTable(_ colors: [RGBA8], order: [Int], transparentIndex: Int?) -> [UInt8] {
        // Each color as shown, once: the table below is up to 65,536 entries, built per file.
        let shown = colors.indices.map { i -> SIMD4<Int32> in
            i == transparentIndex ? .zero : SIMD4(Int32(colors[i].r), Int32(colors[i].g), Int32(colors[i].b), 255)
        }
        var table = [UInt8](repeating: 255, count: 256 * 256)
        for (slot, index) in order.enumerated() {
            let a = shown[index]
            for other in colors.indices {
                let d = a &- shown[other]
                let m = d.replacing(with: 0 &- d, where: d .< 0)
                table[slot << 8 | other] = UInt8(max(max(m.x, m.y), max(m.z, m.w)))
            }
        }
        return table
    }

    /// The error of showing `matte` where each palette index belongs: the largest channel
    /// difference, 0…255; 255 for the transparent index (never marked as blended).
    static func matteErrors(_ colors: [RGBA8], matte: RGBA8, transparentIndex: Int?) -> [UInt8] {
        colors.indices.map { i in
            let c = colors[i]
            return i == transparentIndex ? 255
                : UInt8(max(abs(Int(c.r) - Int(matte.r)), abs(Int(c.g) - Int(matte.g)), abs(Int(c.b) - Int(matte.b))))
        }
    }

    /// How far short of the longest match the lossy coder's flexible pass may stop a string
    /// (`BoundedLZW.encode`'s lookahead). Measured on classic, dark, orb-plain and the 800×200 scene
    /// at three settings each: 8 saved 0.2–8.8 % (0 to 16 was tried; 16 saved about as much, slower).
    static let flexibleParsing = 8

    /// A frame coded lossily: its rectangle, data sub-blocks, code size, key, and the table value
    /// written for each pixel of the rectangle.
    struct BoundedRendition {
        var rect: PixelRect
        var blocks: [UInt8]
        var codeSize: Int
        var key: Int?
        var written: [UInt8]
        var keyUsed: Bool
    }

    /// The frame coded with lossy LZW, if that is shorter than `within` bytes: every pixel within
    /// `lossy` of its exact color as shown (flat pixels exact), unchanged pixels as the key or their
    /// own value, whichever codes shorter. With a matte plane `matte`, a marked pixel is judged
    /// on the matte: where the canvas is transparent, the key shows the matte there.
    ///
    /// The frame's rectangle shrinks to the pixels the canvas does not already show closely
    /// enough; inside it each pixel lists what it accepts, and `BoundedLZW` codes the choice.
    func boundedRendition(_ frame: [UInt8], matte: [UInt8]?, changed: PixelRect, clear: PixelRect, isFirst: Bool,
                          within limit: Int) -> BoundedRendition? {
        let bound = UInt8(lossy)
        let transparent = transparentIndex.map(UInt8.init) ?? 0
        // The error of what the canvas shows at `p` where palette index `index` belongs.
        @inline(__always) func shownError(_ p: Int, _ index: Int) -> UInt8 {
            let shown = canvas[p]
            if let matte, shown == transparent, matte[p] != 0 { return matteError[index] }
            return errors[Int(position[Int(shown)]) << 8 | index]
        }
        var rect = changed
        if !isFirst {
            frame.withUnsafeBufferPointer { f in
                rect = PixelRect.bounding(in: changed, width: width) { p in
                    let error = shownError(p, Int(f[p]))
                    return error > 0 && (error > bound || isFlat(f, p))
                }
            }
        }
        rect = rect.union(clear)
        if rect.isEmpty { rect = PixelRect(x: 0, y: 0, width: 1, height: 1) }
        let key = tableTransparent ?? (isFirst ? nil : unusedEntry(frame, in: rect).map(Int.init))

        let count = rect.width * rect.height
        var exact = [UInt8](repeating: 0, count: count), target = exact, tolerance = exact, keyError = exact
        var largest = 0
        frame.withUnsafeBufferPointer { f in
            for row in 0..<rect.height {
                let src = (rect.y + row) * width + rect.x, dst = row * rect.width
                for col in 0..<rect.width {
                    let index = Int(f[src + col])
                    let value = Int(position[index])
                    exact[dst + col] = UInt8(value)
                    target[dst + col] = UInt8(index)
                    tolerance[dst + col] = isFlat(f, src + col) ? 0 : bound
                    keyError[dst + col] = shownError(src + col, index)
                    largest = max(largest, value)
                }
            }
        }
        // Preferred values: the exact ones; every pixel the canvas shows closely enough as the
        // key; or those as whichever of the key and their own value continues the run before them.
        var preferences = [exact]
        if let k = key, !isFirst {
            var keyed = exact, mixed = exact
            var previous = k
            for i in 0..<count {
                let keep = keyError[i] <= tolerance[i]
                if keep { keyed[i] = UInt8(k) }
                let out = keep && previous != Int(exact[i]) ? k : Int(exact[i])
                mixed[i] = UInt8(out)
                previous = out
            }
            // The same values twice code the same: each distinct list once.
            for p in [keyed, mixed] where !preferences.contains(p) { preferences.append(p) }
        }
        var candidates: [Int?] = [key]
        if let k = key, tableTransparent == nil,
           GIFStream.minimumCodeSize(maxIndex: k) > GIFStream.minimumCodeSize(maxIndex: largest) {
            candidates.append(nil)
        }
        var best: BoundedRendition?
        var winner: (candidate: Int?, preferred: [UInt8])?
        func code(_ candidate: Int?, _ preferred: [UInt8], lookahead: Int) {
            let codeSize = GIFStream.minimumCodeSize(maxIndex: max(largest, candidate ?? 0))
            var written: [UInt8] = []
            let shortest = best?.blocks.count ?? limit
            let coded = preferred.withUnsafeBufferPointer { x in
                target.withUnsafeBufferPointer { t in
                    tolerance.withUnsafeBufferPointer { tol in
                        keyError.withUnsafeBufferPointer { k in
                            errors.withUnsafeBufferPointer { e in
                                lzw.encode(BoundedLZW.Choices(preferred: x, target: t, tolerance: tol, keyError: k, error: e, key: candidate ?? -1),
                                           count: count, minimumCodeSize: codeSize, limit: shortest, lookahead: lookahead, written: &written)
                            }
                        }
                    }
                }
            }
            if let blocks = coded, blocks.count < shortest {
                let used = candidate.map { written.contains(UInt8($0)) } ?? false
                best = BoundedRendition(rect: rect, blocks: blocks, codeSize: codeSize, key: candidate, written: written,
                                        keyUsed: used && tableTransparent == nil)
                winner = (candidate, preferred)
            }
        }
        for candidate in candidates {
            for preferred in preferences where candidate != nil || preferred == exact {
                code(candidate, preferred, lookahead: 0)
            }
        }
        // The winning preferences again, parsed flexibly: each string may stop short of the longest
        // match when that lets the next one reach further (up to `flexibleParsing` values back).
        if let winner { code(winner.candidate, winner.preferred, lookahead: GIFEncoder.flexibleParsing) }
        return best
    }

    /// Updates the canvas to what `bounded` shows (the key keeps what was there) and counts the
    /// pixels shown other than exactly, and those of them showing the matte.
    func show(_ bounded: BoundedRendition, frame: [UInt8], changed: PixelRect) {
        let rect = bounded.rect
        for row in 0..<rect.height {
            let src = (rect.y + row) * width + rect.x, dst = row * rect.width
            for col in 0..<rect.width {
                let v = Int(bounded.written[dst + col])
                if v != bounded.key { canvas[src + col] = UInt8(order[v]) }
            }
        }
        let shown = rect.union(changed)
        let transparent = transparentIndex.map(UInt8.init)
        for row in shown.y..<shown.maxY {
            for p in (row * width + shown.x)..<(row * width + shown.maxX)
            where errors[Int(position[Int(canvas[p])]) << 8 | Int(frame[p])] > 0 {
                stats.pixelsApproximated += 1
                if canvas[p] == transparent { stats.pixelsShowingMatte += 1 }
            }
        }
    }

    /// Whether pixel `p` of `frame` is flat: its 4 neighbours inside the canvas have its index.
    @inline(__always)
    func isFlat(_ f: UnsafeBufferPointer<UInt8>, _ p: Int) -> Bool {
        let v = f[p], x = p % width
        if x > 0 && f[p - 1] != v { return false }
        if x + 1 < width && f[p + 1] != v { return false }
        if p >= width && f[p - width] != v { return false }
        if p + width < f.count && f[p + width] != v { return false }
        return true
    }
}
