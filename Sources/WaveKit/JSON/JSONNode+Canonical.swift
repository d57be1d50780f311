extension JSONNode {
    /// The value as canonical JSON text: no whitespace, object keys sorted, numbers in their
    /// shortest exact form. Equal values give equal text whatever their layout or key order in a
    /// file, so the text can be digested.
    public var canonicalText: String {
        var out = ""
        writeCompact(to: &out, sortingKeys: true)
        return out
    }

    /// The value as compact JSON text: no whitespace, object members in their order, numbers in
    /// their shortest exact form. For files whose readers care about member order (a Lottie
    /// shape's `ty` first) and whose size matters.
    public var compactText: String {
        var out = ""
        writeCompact(to: &out, sortingKeys: false)
        return out
    }

    private func writeCompact(to out: inout String, sortingKeys: Bool) {
        if appendScalar(to: &out) { return }
        switch value {
        case .null, .bool, .number, .string: return
        case let .array(items):
            out += "["
            for (i, item) in items.enumerated() {
                if i > 0 { out += "," }
                item.writeCompact(to: &out, sortingKeys: sortingKeys)
            }
            out += "]"
        case let .object(members):
            out += "{"
            let ordered = sortingKeys ? members.sorted(by: { $0.key.unicodeScalars.lexicographicallyPrecedes($1.key.unicodeScalars) }) : members
            for (i, member) in ordered.enumerated() {
                if i > 0 { out += "," }
                out += JSONNode.quote(member.key) + ":"
                member.value.writeCompact(to: &out, sortingKeys: sortingKeys)
            }
            out += "}"
        }
    }
}
