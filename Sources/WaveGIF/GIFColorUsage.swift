import WavePlatform

/// Which palette entries the frames after the first use, gathered from pairs of consecutive frames,
/// to order the color table so that frames code their pixels in as few bits as they can.
///
/// A frame after the first is written as the rectangle that changed, with an LZW code size that
/// holds its largest table position: a frame whose colors all sit in the table's first 32 entries
/// codes every pixel in 5 bits rather than a 64-entry table's 6, one bit less for every code it
/// starts with. `order` picks the table's first 4, 8, 16… entries so that as many frames (weighted by
/// their area) as possible fit each.
///
/// The order only changes the file's size, never its pixels, so a sample of the loop is enough.
public struct GIFColorUsage: Sendable {
    /// Palette entries.
    public let entries: Int
    /// Entry always counted as used (the transparent index: it marks unchanged pixels).
    public let alwaysUsed: Int?
    /// Frames whose changed rectangle uses each entry.
    public private(set) var frames: [Int]
    /// Pixels of each entry inside the changed rectangles.
    public private(set) var pixels: [Int]
    /// Frame pairs counted.
    public private(set) var samples = 0
    /// Each distinct set of entries a frame used, with the summed area of the frames that used it.
    private var sets: [ColorSet: Int] = [:]

    public init(entries: Int, alwaysUsed: Int? = nil) {
        precondition((1...256).contains(entries), "1…256 entries")
        self.entries = entries
        self.alwaysUsed = alwaysUsed
        frames = [Int](repeating: 0, count: entries)
        pixels = frames
    }

    /// Counts the entries of `frame` inside the rectangle where it differs from `previous`
    /// (both `width` × `height` palette indices below `entries`).
    public mutating func add(previous: [UInt8], frame: [UInt8], width: Int, height: Int) {
        add(GIFColorUsage.count(previous: previous, frame: frame, width: width, height: height))
    }

    /// Adds every consecutive pair of `frames` (`width` × `height` each), in order: the pairs are
    /// counted on the cores, then added one after the other, so the result is `add`'s for each pair.
    public mutating func add(frames: [[UInt8]], width: Int, height: Int) {
        let counted = Concurrently.map(frames.count - 1) { k in
            GIFColorUsage.count(previous: frames[k], frame: frames[k + 1], width: width, height: height)
        }
        for pair in counted { add(pair) }
    }

    /// Adds pairs counted by `count(previous:frame:width:height:)`, in order.
    mutating func add(pairs: [Pair]) {
        for pair in pairs { add(pair) }
    }

    /// One pair of frames counted: the rectangle where they differ, and each entry's pixels in it
    /// (`used`: the entries with any).
    struct Pair: Sendable {
        var rect: PixelRect
        var counts: [Int]
        var used: ColorSet
    }

    static func count(previous: [UInt8], frame: [UInt8], width: Int, height: Int) -> Pair {
        precondition(previous.count == width * height && frame.count == width * height, "frame size")
        let rect = frame.withUnsafeBufferPointer { f in
            previous.withUnsafeBufferPointer { p in
                PixelRect.differing(f, p, width: width)
            }
        }
        var counts = [Int](repeating: 0, count: 256)
        if !rect.isEmpty {
            // Four tallies, taken in turn and added at the end: a run of one index then adds to
            // each tally every fourth pixel, not to one tally pixel after pixel.
            var tallies = [Int32](repeating: 0, count: 4 * 256)
            frame.withUnsafeBufferPointer { f in
                tallies.withUnsafeMutableBufferPointer { t in
                    for row in rect.y..<rect.maxY {
                        var i = row * width + rect.x
                        let end = row * width + rect.maxX
                        while i + 4 <= end {
                            t[Int(f[i])] += 1
                            t[256 + Int(f[i + 1])] += 1
                            t[512 + Int(f[i + 2])] += 1
                            t[768 + Int(f[i + 3])] += 1
                            i += 4
                        }
                        while i < end {
                            t[Int(f[i])] += 1
                            i += 1
                        }
                    }
                }
            }
            for v in 0..<256 { counts[v] = Int(tallies[v]) + Int(tallies[256 + v]) + Int(tallies[512 + v]) + Int(tallies[768 + v]) }
        }
        var used = ColorSet()
        for v in 0..<256 where counts[v] > 0 { used.insert(v) }
        return Pair(rect: rect, counts: counts, used: used)
    }

    private mutating func add(_ pair: Pair) {
        samples += 1
        let rect = pair.rect, counts = pair.counts, entries = self.entries
        var used = ColorSet()
        if let t = alwaysUsed { used.insert(t) }
        pair.used.forEach { index in
            guard index < entries else { return }
            used.insert(index)
            pixels[index] += counts[index]
        }
        used.forEach { frames[$0] += 1 }
        sets[used, default: 0] += max(1, rect.width * rect.height)
    }

    /// Every entry once, in color-table order.
    ///
    /// Nested from the largest sub-table down: the first 2^(b-1) entries are chosen to hold as many
    /// frames' colors (by area) as possible, then the first 2^(b-2) among those, down to 4. Each choice
    /// is greedy: take the frame that brings the most area per new color, while it fits. Frames with
    /// no transparent index also need one free entry in their sub-table, for the "unchanged" key.
    /// Within and after the chosen sets, entries used by more frames come first.
    public var order: [Int] {
        let byUse = (0..<entries).sorted { a, b in
            if frames[a] != frames[b] { return frames[a] > frames[b] }
            if pixels[a] != pixels[b] { return pixels[a] > pixels[b] }
            return a < b
        }
        let bits = GIFStream.tableBits(entries: entries)
        let needsKey = alwaysUsed == nil
        let weighted = sets.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key.wordsPrecede($1.key) }
        // nested[i]: the chosen set for capacity 2^(bits - 1 - i).
        var nested: [ColorSet] = []
        var outer = ColorSet(all: entries)
        for level in stride(from: bits - 1, through: 2, by: -1) {
            let capacity = (1 << level) - (needsKey ? 1 : 0)
            var chosen = ColorSet()
            if let t = alwaysUsed { chosen.insert(t) }
            var candidates = weighted.filter { $0.key.isSubset(of: outer) && $0.key.count <= capacity }
            while true {
                var best = -1, bestScore = 0.0
                for (i, c) in candidates.enumerated() {
                    let union = chosen.union(c.key)
                    guard union.count <= capacity else { continue }
                    let new = union.count - chosen.count
                    let score = new == 0 ? .infinity : Double(c.value) / Double(new)
                    if score > bestScore { best = i; bestScore = score }
                }
                guard best >= 0 else { break }
                chosen = chosen.union(candidates[best].key)
                candidates.remove(at: best)
            }
            nested.append(chosen)
            outer = chosen
        }
        // Innermost set first, then each ring outwards, then the rest; by use within each.
        var greedy: [Int] = []
        var placed = ColorSet()
        for set in nested.reversed() + [ColorSet(all: entries)] {
            for index in byUse where set.contains(index) && !placed.contains(index) {
                greedy.append(index)
                placed.insert(index)
            }
        }
        // The cheaper of the two by the estimate, then improved by swaps.
        let model = CostModel(sets: weighted, entries: entries, needsKey: needsKey)
        var best = model.cost(byUse) <= model.cost(greedy) ? byUse : greedy
        model.improve(&best)
        return best
    }
}

/// The estimated size of the frames' codes for a table order: each frame's area times the code
/// size its largest table position (or its key, when it needs one) calls for.
///
/// The sets' members and the sets holding each entry are kept flat (one array and the start of
/// each list in it): `improve` reads them for every swap it weighs.
struct CostModel {
    let entries: Int
    let needsKey: Bool
    /// Set s: members[memberStart[s]..<memberStart[s + 1]], its weight weights[s].
    let members: [Int32], memberStart: [Int], weights: [Int]
    /// The sets holding entry e: holders[holderStart[e]..<holderStart[e + 1]].
    let holders: [Int32], holderStart: [Int]
    var setCount: Int { weights.count }

    init(sets: [(members: [Int], weight: Int)], entries: Int, needsKey: Bool) {
        var members: [Int32] = [], memberStart = [0]
        for set in sets {
            for m in set.members { members.append(Int32(m)) }
            memberStart.append(members.count)
        }
        self.init(members: members, memberStart: memberStart, weights: sets.map(\.weight), entries: entries, needsKey: needsKey)
    }

    /// The model of `sets` (each a set of entries and its weight) as the sets' members listed.
    init(sets: [(key: ColorSet, value: Int)], entries: Int, needsKey: Bool) {
        var memberStart = [0]
        memberStart.reserveCapacity(sets.count + 1)
        for set in sets { memberStart.append(memberStart[memberStart.count - 1] + set.key.count) }
        let members = [Int32](unsafeUninitializedCapacity: memberStart[sets.count]) { out, filled in
            for set in sets {
                set.key.forEach { m in
                    out[filled] = Int32(m)
                    filled += 1
                }
            }
        }
        self.init(members: members, memberStart: memberStart, weights: sets.map(\.value), entries: entries, needsKey: needsKey)
    }

    private init(members: [Int32], memberStart: [Int], weights: [Int], entries: Int, needsKey: Bool) {
        self.entries = entries
        self.needsKey = needsKey
        var held = [Int](repeating: 0, count: entries)
        members.withUnsafeBufferPointer { ms in
            held.withUnsafeMutableBufferPointer { h in for m in ms { h[Int(m)] += 1 } }
        }
        self.members = members
        self.memberStart = memberStart
        self.weights = weights
        // The sets holding each entry, in set order (as appending set by set lists them).
        var holderStart = [0]
        for e in 0..<entries { holderStart.append(holderStart[e] + held[e]) }
        var fill = holderStart
        var holders = [Int32](repeating: 0, count: members.count)
        members.withUnsafeBufferPointer { ms in
            holders.withUnsafeMutableBufferPointer { hs in
                fill.withUnsafeMutableBufferPointer { fill in
                    for s in 0..<weights.count {
                        for k in memberStart[s]..<memberStart[s + 1] {
                            let m = Int(ms[k])
                            hs[fill[m]] = Int32(s)
                            fill[m] += 1
                        }
                    }
                }
            }
        }
        self.holders = holders
        self.holderStart = holderStart
    }

    @inline(__always)
    func setCost(_ s: Int, _ position: UnsafeBufferPointer<Int>, _ members: UnsafeBufferPointer<Int32>) -> Int {
        weights[s] * GIFStream.minimumCodeSize(maxIndex: topPosition(s, position, members))
    }

    func cost(_ order: [Int]) -> Int {
        let position = positions(order)
        return position.withUnsafeBufferPointer { p in
            members.withUnsafeBufferPointer { m in (0..<setCount).reduce(0) { $0 + setCost($1, p, m) } }
        }
    }

    func positions(_ order: [Int]) -> [Int] {
        var position = [Int](repeating: 0, count: entries)
        for (p, index) in order.enumerated() { position[index] = p }
        return position
    }

    /// Swaps pairs of entries on different sides of a code-size boundary while that lowers the
    /// cost, for a bounded amount of work (`budget`: the members of the sets a swap changes, counted
    /// twice, once weighed before and once after, as if each set's members were read each time).
    ///
    /// Each set's top position is kept, so a swap is weighed from the tops: swapping the entries at
    /// positions i < j moves a set's member up to j (its top becomes the larger of its top and j)
    /// or down to i (its top stays, unless that member was the top: then the set is read again).
    func improve(_ order: inout [Int], budget: Int = 200_000) {
        var position = positions(order)
        var budget = budget
        let sizes = (0..<setCount).map { memberStart[$0 + 1] - memberStart[$0] }
        var stamp = [Int](repeating: -1, count: setCount)
        var fromB = [Int](repeating: -1, count: setCount)
        // The sets a swap changes and each one's top after it.
        var touched: [(set: Int, top: Int)] = []
        touched.reserveCapacity(setCount)
        var round = 0
        var improved = true
        // A top is a position or, for a set that needs a key, at most its size (every entry).
        let codeSizes = (0...entries).map { GIFStream.minimumCodeSize(maxIndex: $0) }
        members.withUnsafeBufferPointer { members in
          holders.withUnsafeBufferPointer { holders in
            position.withUnsafeMutableBufferPointer { p in
              var top = (0..<setCount).map { s in topPosition(s, UnsafeBufferPointer(p), members) }
              while improved && budget > 0 {
                improved = false
                for i in 0..<entries where budget > 0 {
                    let bitsI = codeSizes[i]
                    for j in (i + 1)..<entries where budget > 0 && codeSizes[j] != bitsI {
                        let a = order[i], b = order[j]
                        // Sets holding only one of the two change; those holding both do not.
                        round += 1
                        for k in holderStart[a]..<holderStart[a + 1] { stamp[Int(holders[k])] = round }
                        for k in holderStart[b]..<holderStart[b + 1] {
                            let s = Int(holders[k])
                            if stamp[s] == round { stamp[s] = -round } else { stamp[s] = round; fromB[s] = round }
                        }
                        touched.removeAll(keepingCapacity: true)
                        var before = 0, after = 0, read = 0
                        // In set order, as the sets holding a, then those holding b, were listed.
                        for k in holderStart[a]..<holderStart[a + 1] {
                            let s = Int(holders[k])
                            guard stamp[s] == round else { continue }
                            let moved = max(top[s], j)
                            touched.append((s, moved))
                            before += weights[s] * codeSizes[top[s]]
                            after += weights[s] * codeSizes[moved]
                            read += sizes[s]
                        }
                        for k in holderStart[b]..<holderStart[b + 1] {
                            let s = Int(holders[k])
                            guard stamp[s] == round, fromB[s] == round else { continue }
                            var moved = top[s]
                            if moved == j {
                                p[b] = i
                                moved = topPosition(s, UnsafeBufferPointer(p), members)
                                p[b] = j
                            }
                            touched.append((s, moved))
                            before += weights[s] * codeSizes[top[s]]
                            after += weights[s] * codeSizes[moved]
                            read += sizes[s]
                        }
                        guard !touched.isEmpty else { continue }
                        budget -= 2 * read
                        if after < before {
                            p[a] = j
                            p[b] = i
                            for t in touched { top[t.set] = t.top }
                            order.swapAt(i, j)
                            improved = true
                        }
                    }
                }
              }
            }
          }
        }
    }

    /// Set s's top position: its largest member's, or its size when it needs a key and that is larger.
    @inline(__always)
    func topPosition(_ s: Int, _ position: UnsafeBufferPointer<Int>, _ members: UnsafeBufferPointer<Int32>) -> Int {
        let first = memberStart[s], end = memberStart[s + 1]
        var top = needsKey ? end - first : 0
        for k in first..<end { top = max(top, position[Int(members[k])]) }
        return top
    }
}
