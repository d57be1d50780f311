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
        switch value {
        case .null: out += "null"
        case let .bool(b): out += b ? "true" : "false"
        case let .number(n): out += n.isFinite ? NumberText.exact(n) : "null"
        case let .string(s): out += JSONNode.quote(s)
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
