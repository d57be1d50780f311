internal import CGIF
import WavePlatform

extension GIFEncoder {
    /// The error of showing each table position where each palette index belongs: the largest
    /// channel difference of the colors as a GIF shows them (premultiplied RGBA: a palette color
    /// opaque, the transparent index 0,0,0,0), 0…255; 255 for positions past the palette. Filed
    /// `[index << 8 | position]`: what one pixel accepts is one 256-byte row.
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
                table[other << 8 | slot] = UInt8(max(max(m.x, m.y), max(m.z, m.w)))
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

    /// What a lossy frame writes: its bounded rendition, or the exact one where that codes no longer.
    enum LossyRendition {
        case bounded(BoundedRendition)
        case exact(ExactRendition)
    }

    /// The rendition a lossy frame writes: the bounded one (`boundedRendition`) if its blocks are
    /// shorter than the exact rendition's (`exactRendition`), else the exact one (ties go to it).
    ///
    /// The bounded renditions are coded first, with no limit; their shortest then bounds the
    /// exact renditions, which only need to show that one of them codes as short (`ExactRendition.
    /// largestBits`), so in lossy files, where the bounded one is usually much the shorter, they
    /// give up early; the flexible pass runs only if the bounded rendition wins. On a frame of at
    /// least `guessArea` pixels with the cores free to use (`onTheCores`), the flexible pass of the
    /// pair that won the frame before is coded on a second core beside the greedy passes, and
    /// taken if that pair wins again (else the winner's is coded after, as without it). The choice
    /// and every byte are those of `lossyRenditionExactFirst`, the order the choice is defined in.
    func lossyRendition(_ frame: [UInt8], matte: [UInt8]?, changed: PixelRect, clear: PixelRect,
                        isFirst: Bool) -> LossyRendition {
        let (planned, pairs) = boundedPlan(frame, matte: matte, changed: changed, clear: clear, isFirst: isFirst)
        var search = planned
        // Beside the greedy passes, on another core, the flexible pass of the pair that won the
        // frame before (`guessedFlexibly`); taken when that pair wins again.
        let guess = min(lastWinner, pairs.count - 1)
        var guessed: BoundedRendition?
        if onTheCores, search.count >= GIFEncoder.guessArea, ProcessEnvironment.activeProcessorCount > 1 {
            nonisolated(unsafe) var greedy = search
            nonisolated(unsafe) var flexible: BoundedRendition?
            nonisolated(unsafe) let encoder = self
            Concurrently.perform(2) { task in
                if task == 0 {
                    encoder.codeGreedily(&greedy, pairs, within: .max)
                } else {
                    flexible = encoder.guessedFlexibly(planned, pairs[guess])
                }
            }
            search = greedy
            guessed = flexible
        } else {
            codeGreedily(&search, pairs, within: .max)
        }
        // With no limit the first candidate always completes, so there is a greedy winner.
        guard let greedy = search.best, let winner = search.winner else {
            preconditionFailure("an unlimited bounded search has a winner")
        }
        lastWinner = winner.index
        if let exact = exactRendition(frame, changed: changed, clear: clear, isFirst: isFirst,
                                      within: ExactRendition.largestBits(within: greedy.blocks.count)) {
            return .exact(exact)
        }
        // The flexible pass keeps its coding only if shorter than the greedy winner (`refined`).
        if let guessed {
            if winner.index == guess {
                guesses.taken += 1
                return .bounded(guessed.blocks.count < greedy.blocks.count ? guessed : greedy)
            }
            guesses.missed += 1
        }
        return .bounded(refined(&search))
    }

    /// Frames of at least this many pixels code the flexible pass of the pair guessed to win beside
    /// their greedy passes (`lossyRendition`).
    static let guessArea = 4096

    /// `pair` of `planned` coded flexibly with no limit, by the spare coder: what `refined` codes when
    /// `pair` wins the greedy passes, but not cut short at the greedy winner's length (`lossyRendition`
    /// compares the two after).
    func guessedFlexibly(_ planned: BoundedSearch, _ pair: BoundedPair) -> BoundedRendition? {
        var alone = planned
        code(&alone, pair, limit: .max, lookahead: GIFEncoder.flexibleParsing, coder: spareLZW)
        return alone.best
    }

    /// The slow reference for `lossyRendition`, in the order the choice is defined: the exact
    /// rendition coded in full, then the bounded renditions with its size as their limit.
    func lossyRenditionExactFirst(_ frame: [UInt8], matte: [UInt8]?, changed: PixelRect, clear: PixelRect,
                                  isFirst: Bool) -> LossyRendition {
        guard let exact = exactRendition(frame, changed: changed, clear: clear, isFirst: isFirst) else {
            preconditionFailure("an unlimited exact rendition always codes")
        }
        if let bounded = boundedRendition(frame, matte: matte, changed: changed, clear: clear, isFirst: isFirst,
                                          within: exact.dataBytes) {
            return .bounded(bounded)
        }
        return .exact(exact)
    }

    /// The frame coded with lossy LZW, if that is shorter than `within` bytes: every pixel within
    /// `lossy` of its exact color as shown (flat pixels exact), unchanged pixels as the key or their
    /// own value, whichever codes shorter. With a matte plane `matte`, a marked pixel is judged
    /// on the matte: where the canvas is transparent, the key shows the matte there.
    ///
    /// The frame's rectangle shrinks to the pixels the canvas does not already show closely
    /// enough; inside it each pixel lists what it accepts, and `BoundedLZW` codes the choice:
    /// each candidate greedily (`boundedSearch`), then the shortest again, parsed flexibly (`refined`).
    func boundedRendition(_ frame: [UInt8], matte: [UInt8]?, changed: PixelRect, clear: PixelRect, isFirst: Bool,
                          within limit: Int) -> BoundedRendition? {
        guard var search = boundedSearch(frame, matte: matte, changed: changed, clear: clear, isFirst: isFirst,
                                         within: limit) else { return nil }
        return refined(&search)
    }

    /// A frame's bounded renditions coded greedily: what each pixel accepts, and the shortest.
    struct BoundedSearch {
        var rect: PixelRect
        var count: Int
        /// The largest table position of the rectangle's exact values.
        var largest: Int
        var target: [UInt8]
        var tolerance: [UInt8]
        var keyError: [UInt8]
        /// The shortest rendition so far, and the pair of the plan it was coded from.
        var best: BoundedRendition?
        var winner: BoundedPair?
    }

    /// One way to code a frame's bounded rendition: the key candidate and the preferred values,
    /// and its place among the plan's pairs (`boundedPlan`).
    struct BoundedPair: Sendable {
        var index: Int
        var candidate: Int?
        var preferred: [UInt8]
    }

    /// Every candidate (the key or none; the preferred values) coded greedily, each with the
    /// shortest so far as its limit (`limit` bytes at first); nil if none is shorter than `limit`.
    /// Of equally short ones the first wins, so under any limit above the shortest the winner is
    /// the same.
    func boundedSearch(_ frame: [UInt8], matte: [UInt8]?, changed: PixelRect, clear: PixelRect, isFirst: Bool,
                       within limit: Int) -> BoundedSearch? {
        var (search, pairs) = boundedPlan(frame, matte: matte, changed: changed, clear: clear, isFirst: isFirst)
        codeGreedily(&search, pairs, within: limit)
        return search.best == nil ? nil : search
    }

    /// Every pair coded greedily into `search` in order, each with the shortest so far as its
    /// limit (`limit` bytes at first).
    func codeGreedily(_ search: inout BoundedSearch, _ pairs: [BoundedPair], within limit: Int) {
        for pair in pairs { code(&search, pair, limit: limit, lookahead: 0, coder: lzw) }
    }

    /// What `boundedSearch` codes: the rectangle and what each pixel accepts (no rendition yet),
    /// and every pair of key candidate and preferred values, in the order they are tried.
    func boundedPlan(_ frame: [UInt8], matte: [UInt8]?, changed: PixelRect, clear: PixelRect,
                     isFirst: Bool) -> (BoundedSearch, [BoundedPair]) {
        let bound = UInt8(lossy)
        var rect = changed
        if !isFirst {
            frame.withUnsafeBufferPointer { f in
                rect = PixelRect.bounding(in: changed, width: width) { p in
                    let error = shownError(p, Int(f[p]), matte: matte)
                    return error > 0 && (error > bound || isFlat(f, p))
                }
            }
        }
        rect = rect.union(clear)
        if rect.isEmpty { rect = PixelRect(x: 0, y: 0, width: 1, height: 1) }
        let key = tableTransparent ?? (isFirst ? nil : unusedEntry(frame, in: rect).map(Int.init))

        let count = rect.width * rect.height
        let (exact, target, tolerance, keyError, largest) = acceptance(frame, matte: matte, in: rect)
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
        var pairs: [BoundedPair] = []
        for candidate in candidates {
            for preferred in preferences where candidate != nil || preferred == exact {
                pairs.append(BoundedPair(index: pairs.count, candidate: candidate, preferred: preferred))
            }
        }
        let search = BoundedSearch(rect: rect, count: count, largest: largest, target: target, tolerance: tolerance,
                                   keyError: keyError, best: nil, winner: nil)
        return (search, pairs)
    }

    /// What each pixel of `rect` accepts: its exact table value, its palette index, its tolerance
    /// (0 where the pixel is flat, else the bound) and the error of the key there (what the canvas
    /// shows, or the matte where a marked pixel shows through), and the largest exact value. Over
    /// raw buffers a row at a time; `referenceAcceptance` is the plain form.
    func acceptance(_ frame: [UInt8], matte: [UInt8]?, in rect: PixelRect)
        -> (exact: [UInt8], target: [UInt8], tolerance: [UInt8], keyError: [UInt8], largest: Int) {
        let bound = UInt8(lossy), transparent = transparentIndex.map(UInt8.init) ?? 0
        let count = rect.width * rect.height
        var exact = [UInt8](repeating: 0, count: count), target = exact, tolerance = exact, keyError = exact
        var largest = 0
        let hasMatte = matte != nil
        frame.withUnsafeBufferPointer { f in
          canvas.withUnsafeBufferPointer { c in
            position.withUnsafeBufferPointer { pos in
              errors.withUnsafeBufferPointer { e in
                matteError.withUnsafeBufferPointer { me in
                  (matte ?? []).withUnsafeBufferPointer { m in
                    exact.withUnsafeMutableBufferPointer { ex in
                      target.withUnsafeMutableBufferPointer { tg in
                        tolerance.withUnsafeMutableBufferPointer { tl in
                          keyError.withUnsafeMutableBufferPointer { ke in
                            let width = self.width
                            for row in 0..<rect.height {
                                let src = (rect.y + row) * width + rect.x, dst = row * rect.width
                                for col in 0..<rect.width {
                                    let p = src + col, x = rect.x + col
                                    let v = f[p], index = Int(v)
                                    let value = Int(pos[index])
                                    ex[dst + col] = UInt8(value)
                                    tg[dst + col] = v
                                    let flat = (x == 0 || f[p - 1] == v) && (x + 1 >= width || f[p + 1] == v)
                                        && (p < width || f[p - width] == v) && (p + width >= f.count || f[p + width] == v)
                                    tl[dst + col] = flat ? 0 : bound
                                    let shown = c[p]
                                    ke[dst + col] = hasMatte && shown == transparent && m[p] != 0 ? me[index]
                                        : e[index << 8 | Int(pos[Int(shown)])]
                                    largest = max(largest, value)
                                }
                            }
                          }
                        }
                      }
                    }
                  }
                }
              }
            }
          }
        }
        return (exact, target, tolerance, keyError, largest)
    }

    /// The error of what the canvas shows at `p` where palette index `index` belongs (the matte,
    /// where a pixel marked in `matte` shows through the transparent index).
    @inline(__always)
    func shownError(_ p: Int, _ index: Int, matte: [UInt8]?) -> UInt8 {
        let shown = canvas[p]
        if let matte, shown == (transparentIndex.map(UInt8.init) ?? 0), matte[p] != 0 { return matteError[index] }
        return errors[index << 8 | Int(position[Int(shown)])]
    }

    /// `acceptance(_:matte:in:)` pixel by pixel through `isFlat` and `shownError`.
    func referenceAcceptance(_ frame: [UInt8], matte: [UInt8]?, in rect: PixelRect)
        -> (exact: [UInt8], target: [UInt8], tolerance: [UInt8], keyError: [UInt8], largest: Int) {
        let bound = UInt8(lossy)
        let count = rect.width * rect.height
        var exact = [UInt8](repeating: 0, count: count), target = exact, tolerance = exact, keyError = exact
        var largest = 0
        frame.withUnsafeBufferPointer { f in
            for row in 0..<rect.height {
                let src = (rect.y + row) * width + rect.x, dst = row * rect.width
                for col in 0..<rect.width {
                    let p = src + col, index = Int(f[p])
                    let value = Int(position[index])
                    exact[dst + col] = UInt8(value)
                    target[dst + col] = UInt8(index)
                    tolerance[dst + col] = isFlat(f, p) ? 0 : bound
                    keyError[dst + col] = shownError(p, index, matte: matte)
                    largest = max(largest, value)
                }
            }
        }
        return (exact, target, tolerance, keyError, largest)
    }

    /// The winning preferences of `search` again, parsed flexibly: each string may stop short of
    /// the longest match when that lets the next one reach further (up to `flexibleParsing` values
    /// back); the shorter of the two.
    func refined(_ search: inout BoundedSearch) -> BoundedRendition {
        if let winner = search.winner {
            code(&search, winner, limit: .max, lookahead: GIFEncoder.flexibleParsing, coder: lzw)
        }
        return search.best!
    }

    /// Codes `pair` into `search` with `coder`, keeping it if its blocks are shorter than the best
    /// so far (or, with none yet, than `limit` bytes).
    private func code(_ search: inout BoundedSearch, _ pair: BoundedPair, limit: Int, lookahead: Int, coder: BoundedLZW) {
        let candidate = pair.candidate
        let codeSize = GIFStream.minimumCodeSize(maxIndex: max(search.largest, candidate ?? 0))
        var written: [UInt8] = []
        let shortest = search.best?.blocks.count ?? limit
        let coded = pair.preferred.withUnsafeBufferPointer { x in
            search.target.withUnsafeBufferPointer { t in
                search.tolerance.withUnsafeBufferPointer { tol in
                    search.keyError.withUnsafeBufferPointer { k in
                        errors.withUnsafeBufferPointer { e in
                            coder.encode(BoundedLZW.Choices(preferred: x, target: t, tolerance: tol, keyError: k, error: e, key: candidate ?? -1),
                                       count: search.count, minimumCodeSize: codeSize, limit: shortest, lookahead: lookahead,
                                       written: &written)
                        }
                    }
                }
            }
        }
        if let blocks = coded, blocks.count < shortest {
            let used = candidate.map { written.contains(UInt8($0)) } ?? false
            search.best = BoundedRendition(rect: search.rect, blocks: blocks, codeSize: codeSize, key: candidate, written: written,
                                           keyUsed: used && tableTransparent == nil)
            search.winner = pair
        }
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
            where errors[Int(frame[p]) << 8 | Int(position[Int(canvas[p])])] > 0 {
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
