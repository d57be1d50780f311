/// A parsed JSON document that remembers where each value came from, so that a preset error can
/// name the line and column as well as the key path.
public indirect enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONNode])
    /// Members in file order; duplicate keys are rejected by the parser.
    case object([(key: String, value: JSONNode)])

    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): return true
        case let (.bool(a), .bool(b)): return a == b
        case let (.number(a), .number(b)): return a == b
        case let (.string(a), .string(b)): return a == b
        case let (.array(a), .array(b)): return a == b
        case let (.object(a), .object(b)):
            return a.count == b.count && zip(a, b).allSatisfy { $0.key == $1.key && $0.value == $1.value }
        default: return false
        }
    }

    /// A short name for the kind of value, as used in error messages.
    public var kindName: String {
        switch self {
        case .null: return "null"
        case .bool: return "a boolean"
        case .number: return "a number"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }
}

/// A value and its position in the source text (1-based line and column).
public struct JSONNode: Sendable, Equatable {
    public var value: JSONValue
    public var line: Int
    public var column: Int

    public init(_ value: JSONValue, line: Int = 0, column: Int = 0) {
        self.value = value
        self.line = line
        self.column = column
    }

    public static func == (lhs: JSONNode, rhs: JSONNode) -> Bool { lhs.value == rhs.value }

    /// The member named `key`, when this is an object.
    public subscript(key: String) -> JSONNode? {
        guard case let .object(members) = value else { return nil }
        return members.first { $0.key == key }?.value
    }
}

extension JSONNode {
    /// Builders for writing JSON reports: members in the order given; a missing or non-finite
    /// number is null.
    public static let null = JSONNode(.null)
    public static func bool(_ b: Bool) -> JSONNode { JSONNode(.bool(b)) }
    public static func string(_ s: String?) -> JSONNode { s.map { JSONNode(.string($0)) } ?? .null }
    public static func number(_ v: Double?) -> JSONNode { v.map { $0.isFinite ? JSONNode(.number($0)) : .null } ?? .null }
    public static func int(_ v: Int?) -> JSONNode { v.map { JSONNode(.number(Double($0))) } ?? .null }
    public static func array(_ items: [JSONNode]) -> JSONNode { JSONNode(.array(items)) }
    public static func object(_ members: [(String, JSONNode)]) -> JSONNode {
        JSONNode(.object(members.map { (key: $0.0, value: $0.1) }))
    }

    /// Serialises the value as compact or indented JSON text with keys in file order.
    public func serialized(indent: Int? = 2) -> String {
        var out = ""
        write(to: &out, indent: indent, depth: 0)
        return out
    }

    private func write(to out: inout String, indent: Int?, depth: Int) {
        let pad = { (d: Int) -> String in indent.map { "\n" + String(repeating: " ", count: $0 * d) } ?? "" }
        if appendScalar(to: &out) { return }
        switch value {
        case .null, .bool, .number, .string: return
        case let .array(items):
            if items.isEmpty { out += "[]"; return }
            let simple = items.allSatisfy { if case .array = $0.value { return false }; if case .object = $0.value { return false }; return true }
            if simple {
                out += "[" + items.map { $0.serialized(indent: nil) }.joined(separator: ", ") + "]"
                return
            }
            out += "["
            for (i, item) in items.enumerated() {
                out += pad(depth + 1)
                item.write(to: &out, indent: indent, depth: depth + 1)
                if i < items.count - 1 { out += "," }
            }
            out += pad(depth) + "]"
        case let .object(members):
            if members.isEmpty { out += "{}"; return }
            out += "{"
            for (i, member) in members.enumerated() {
                out += pad(depth + 1) + JSONNode.quote(member.key) + (indent == nil ? ":" : ": ")
                member.value.write(to: &out, indent: indent, depth: depth + 1)
                if i < members.count - 1 { out += indent == nil ? ", " : "," }
            }
            out += pad(depth) + "}"
        }
    }

    /// Appends a null, boolean, number or string as JSON text (a non-finite number as null);
    /// false for arrays and objects, which the writers lay out themselves.
    func appendScalar(to out: inout String) -> Bool {
        switch value {
        case .null: out += "null"
        case let .bool(b): out += b ? "true" : "false"
        case let .number(n): out += n.isFinite ? NumberText.exact(n) : "null"
        case let .string(s): out += JSONNode.quote(s)
        case .array, .object: return false
        }
        return true
    }

    static func quote(_ s: String) -> String {
        var out = "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
