/// GIF's LZW with a bounded choice of values: each pixel lists how far each table value would put
/// it from its exact color, and a tolerance; the coder may write any value within the tolerance,
/// and picks, string by string, the longest dictionary string that every pixel it covers accepts
/// (as gifsicle's `--lossy` does, but with a hard per-pixel bound instead of a running error).
///
/// Each string's first pixel is fixed before the search (its preferred value), so the dictionary
/// entry a string adds (the string before plus that first value) is known when the search starts,
/// exactly as in plain LZW, and a run can use the entry it has just made. With every tolerance 0
/// and no key the coder is plain greedy LZW and writes giflib's bytes exactly: the same codes, the
/// same code widths, the same clear code when the table fills, the same 255-byte blocks.
final class BoundedLZW {
    /// What the coder may write for each pixel of an image, in raster order.
    struct Choices {
        /// The value the pixel prefers, one it accepts (its own table position, or the
        /// keep-what-is-there key). Every string starts with its first pixel's preferred value,
        /// and of equally long strings the one that departs least from the preferred values (then
        /// the one with the smallest total error) is taken.
        var preferred: UnsafeBufferPointer<UInt8>
        /// The pixel's own identity in `error` (the palette index of its exact color).
        var target: UnsafeBufferPointer<UInt8>
        /// The largest error the pixel accepts (0: only values that show its exact color).
        var tolerance: UnsafeBufferPointer<UInt8>
        /// The error of writing the key at the pixel (what the canvas shows there), one per pixel
        /// like the others (read even without a key, its values then ignored).
        var keyError: UnsafeBufferPointer<UInt8>
        /// `error[target << 8 | value]`: the error of showing table value `value` where `target`'s
        /// color belongs (255 for values that must not be written); a pixel's row is 256 bytes.
        var error: UnsafeBufferPointer<UInt8>
        /// The table position meaning "keep what is there", or -1.
        var key: Int
    }

    private static let maxCode = 4095
    /// The dictionary as a trie: codes below the clear code are the single values; each entry links
    /// to its first child and next sibling (-1: none) and knows its parent and last value.
    private let firstChild = UnsafeMutablePointer<Int16>.allocate(capacity: maxCode + 1)
    private let nextSibling = UnsafeMutablePointer<Int16>.allocate(capacity: maxCode + 1)
    private let parent = UnsafeMutablePointer<Int16>.allocate(capacity: maxCode + 1)
    private let value = UnsafeMutablePointer<UInt8>.allocate(capacity: maxCode + 1)
    /// How many values the longest string below each entry adds to it (0: a leaf), so a search
    /// skips what cannot reach the longest match found so far.
    private let height = UnsafeMutablePointer<Int16>.allocate(capacity: maxCode + 1)
    /// The search's stack: each trie entry is pushed at most once per search.
    private let stack = UnsafeMutablePointer<(code: Int16, length: Int32, error: Int32)>.allocate(capacity: maxCode + 1)

    /// Whether the coder takes its shortcuts: the flexible parse hands the search it made for the
    /// next string's start on to the next step, where the string just added cannot change it, and
    /// a search skips the entries that cannot reach the longest match so far (`longestMatch`). Off:
    /// every search is made afresh and in full, the slow form the tests hold it to.
    var takesShortcuts = true

    init() {}

    deinit {
        firstChild.deallocate()
        nextSibling.deallocate()
        parent.deallocate()
        value.deallocate()
        height.deallocate()
        stack.deallocate()
    }

    /// Codes `choices` (pixel count `count`) with LZW minimum code size `minimumCodeSize`. Returns
    /// the data sub-blocks (length byte, up to 255 bytes; no terminator) and fills `written` with
    /// the value written for each pixel; or nil, as soon as the blocks reach `limit` bytes.
    ///
    /// With `lookahead` above 0 the parse is flexible (one step ahead, as in LZW-FP): each string
    /// may stop up to `lookahead` values short of the longest match, at the prefix after which the
    /// next string reaches furthest (ties keep the longer string). Any prefix is a dictionary
    /// string every pixel it covers accepts, and the decoder rebuilds the same dictionary from
    /// the codes, so the stream stays plain GIF LZW.
    func encode(_ choices: Choices, count: Int, minimumCodeSize: Int, limit: Int = .max, lookahead: Int = 0,
                written: inout [UInt8]) -> [UInt8]? {
        written = [UInt8](repeating: 0, count: count)
        var out = CodeWriter(minimumCodeSize: minimumCodeSize)
        let clear = 1 << minimumCodeSize
        guard count > 0 else { return out.finish() }
        for c in 0..<clear {
            firstChild[c] = -1
            parent[c] = -1
            value[c] = UInt8(c)
            height[c] = 0
        }
        let finished = written.withUnsafeMutableBufferPointer { written -> Bool in
            var position = 0
            var code = Int(choices.preferred[0])
            // The search the last step made at this step's start, when still good.
            var carried: (code: Int, length: Int)?
            while true {
                var (match, length) = carried ?? longestMatch(from: code, at: position, choices, count: count)
                carried = nil
                var next: (code: Int, length: Int)?
                if lookahead > 0, length > 1, position + length < count {
                    func search(_ l: Int, longerThan floor: Int = 0) -> (code: Int, length: Int) {
                        longestMatch(from: Int(choices.preferred[position + l]), at: position + l, choices, count: count,
                                     longerThan: floor)
                    }
                    let first = search(length)
                    var best = (code: match, length: length, reach: length + first.length, next: first)
                    var prefix = Int(parent[match])
                    for l in stride(from: length - 1, through: max(1, length - lookahead), by: -1) {
                        // Only a match longer than `best.reach - l` changes the choice.
                        let n = search(l, longerThan: best.reach - l)
                        if l + n.length > best.reach { best = (prefix, l, l + n.length, n) }
                        prefix = Int(parent[prefix])
                    }
                    (match, length, next) = (best.code, best.length, best.next)
                }
                let start = position
                spell(match, length: length, into: written.baseAddress! + position)
                position += length
                out.put(match)
                guard out.bytes < limit else { return false }
                guard position < count else { return true }
                code = Int(choices.preferred[position])
                if out.next >= BoundedLZW.maxCode {
                    out.put(clear)
                    out.reset()
                    for c in 0..<clear {
                        firstChild[c] = -1
                        height[c] = 0
                    }
                } else {
                    add(out.next, prefix: match, value: code)
                    out.next += 1
                    // The entry just added extends `match`, so it lies in the trie under `code`
                    // only when `match` starts with `code`; otherwise the search from `code` made
                    // for the chosen length (same start, same trie under it) stands.
                    if takesShortcuts, let next, Int(written[start]) != code { carried = next }
                }
            }
        }
        guard finished else { return nil }
        out.put(clear + 1)
        return out.finish()
    }

    /// The longest string in the dictionary that starts with `code` at `position` and that every
    /// pixel it covers accepts; of equally long ones, the one with the fewest values other than the
    /// preferred ones plus the smallest total error (then the first found).
    ///
    /// Depth first, an entry is looked into only when the longest string below it could reach the
    /// longest match so far (`height`): what is skipped could neither be longer nor tie, so the
    /// answer and the order ties are met in are those of the full search. With `floor`, only a
    /// match longer than `floor` is wanted: when there is one the answer is the same, otherwise
    /// it is some shorter match (the caller, which wanted a longer one, ignores it).
    private func longestMatch(from code: Int, at position: Int, _ c: Choices, count: Int,
                              longerThan floor: Int = 0) -> (code: Int, length: Int) {
        var best = (code: code, length: 1, error: 0)
        // The slow form looks into every entry: no length is too short to look for.
        let floor = takesShortcuts ? floor : Int.min, prunes = takesShortcuts
        var depth = 1
        stack[0] = (Int16(code), 1, 0)
        while depth > 0 {
            depth -= 1
            let (node, length, error) = stack[depth]
            let at = position + Int(length)
            let reach = Int(length) + Int(height[Int(node)])
            guard at < count, !prunes || (reach > floor && reach >= best.length) else { continue }
            let tolerance = Int(c.tolerance[at])
            let row = Int(c.target[at]) << 8, preferred = Int(c.preferred[at]), keyError = Int(c.keyError[at])
            var child = Int(firstChild[Int(node)])
            while child >= 0 {
                let v = Int(value[child])
                let e = v == c.key ? keyError : Int(c.error[row | v])
                if e <= tolerance {
                    let l = Int(length) + 1, total = Int(error) + e + (v == preferred ? 0 : 1)
                    if l > best.length || (l == best.length && total < best.error) { best = (child, l, total) }
                    stack[depth] = (Int16(child), Int32(l), Int32(total))
                    depth += 1
                }
                child = Int(nextSibling[child])
            }
        }
        return (best.code, best.length)
    }

    /// Adds `code` = the string `prefix` followed by `v`, unless `prefix` already has that child
    /// (the code is spent either way, as the decoder spends it).
    private func add(_ code: Int, prefix: Int, value v: Int) {
        var child = Int(firstChild[prefix])
        while child >= 0 {
            if Int(value[child]) == v { return }
            child = Int(nextSibling[child])
        }
        firstChild[code] = -1
        parent[code] = Int16(prefix)
        value[code] = UInt8(v)
        height[code] = 0
        nextSibling[code] = firstChild[prefix]
        firstChild[prefix] = Int16(code)
        var node = prefix, h: Int16 = 1
        while node >= 0 && height[node] < h {
            height[node] = h
            node = Int(parent[node])
            h += 1
        }
    }

    /// Writes the `length` values of string `code` at `out`.
    private func spell(_ code: Int, length: Int, into out: UnsafeMutablePointer<UInt8>) {
        var c = code
        for i in stride(from: length - 1, through: 0, by: -1) {
            out[i] = value[c]
            c = Int(parent[c])
        }
    }
}

/// Packs codes as giflib does: least significant bit first, the width growing after a code is
/// written once the next free code no longer fits, in data sub-blocks of up to 255 bytes.
private struct CodeWriter {
    let minimumCodeSize: Int
    /// The next code to assign.
    var next: Int
    private var width: Int
    private var limit: Int
    private var bits: UInt64 = 0
    private var pending = 0
    private var blocks: [UInt8] = []
    private var blockStart = 0
    /// Bytes written so far, length bytes included.
    var bytes: Int { blocks.count }

    init(minimumCodeSize: Int) {
        self.minimumCodeSize = minimumCodeSize
        next = (1 << minimumCodeSize) + 2
        width = minimumCodeSize + 1
        limit = 1 << width
        blocks.reserveCapacity(4096)
        put(1 << minimumCodeSize)
    }

    /// Back to the first code and width, after a clear code.
    mutating func reset() {
        next = (1 << minimumCodeSize) + 2
        width = minimumCodeSize + 1
        limit = 1 << width
    }

    mutating func put(_ code: Int) {
        bits |= UInt64(code) << UInt64(pending)
        pending += width
        while pending >= 8 {
            byte(UInt8(truncatingIfNeeded: bits))
            bits >>= 8
            pending -= 8
        }
        if next >= limit && code <= 4095 {
            width += 1
            limit <<= 1
        }
    }

    private mutating func byte(_ b: UInt8) {
        if blocks.count == blockStart {
            blocks.append(0)
        }
        blocks.append(b)
        blocks[blockStart] += 1
        if blocks[blockStart] == 255 { blockStart = blocks.count }
    }

    /// The remaining bits, and the blocks.
    mutating func finish() -> [UInt8] {
        while pending > 0 {
            byte(UInt8(truncatingIfNeeded: bits))
            bits >>= 8
            pending -= 8
        }
        return blocks
    }
}
