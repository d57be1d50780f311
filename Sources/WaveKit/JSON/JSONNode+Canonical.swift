extension JSONNode {
    /// The value as canonical JSON text: no whitespace, object keys sorted, numbers in their
    /// shortest exact form. Equal values give equal text whatever their layout or key order in a
    /// file, so the text can be digested.
    public var canonicalText: String {
        var out = ""
        writeCanonical(to: &out)
        return out
    }

    private func writeCanonical(to out: inout String) {
        if appendScalar(to: &out) { return }
        switch value {
        case .null, .bool, .number, .string: return
        case let .array(items):
            out += "["
            for (i, item) in items.enumerated() {
                if i > 0 { out += "," }
                item.writeCanonical(to: &out)
            }
            out += "]"
        case let .object(members):
            out += "{"
            for (i, member) in members.sorted(by: { $0.key.unicodeScalars.lexicographicallyPrecedes($1.key.unicodeScalars) }).enumerated() {
                if i > 0 { out += "," }
                out += JSONNode.quote(member.key) + ":"
                member.value.writeCanonical(to: &out)
            }
            out += "}"
        }
    }
}
