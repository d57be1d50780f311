extension StringProtocol {
    /// The text with every occurrence of `target` replaced by `replacement`, left to right and
    /// without overlaps, matched on UTF-8 bytes (so "\n" is found inside "\r\n" too).
    public func replacingAll(_ target: String, with replacement: String) -> String {
        let needle = Array(target.utf8)
        guard !needle.isEmpty else { return String(self) }
        let hay = Array(utf8)
        guard hay.count >= needle.count else { return String(self) }
        var out: [UInt8] = []
        out.reserveCapacity(hay.count)
        var i = 0
        var changed = false
        while i < hay.count {
            if hay[i] == needle[0], i + needle.count <= hay.count, hay[i..<(i + needle.count)].elementsEqual(needle) {
                out.append(contentsOf: replacement.utf8)
                i += needle.count
                changed = true
            } else {
                out.append(hay[i])
                i += 1
            }
        }
        return changed ? String(decoding: out, as: UTF8.self) : String(self)
    }
}
