import Foundation

/// A JSON value with ordered keys, for `--json`.
indirect enum JSON {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSON])
    case object([(String, JSON)])

    static func num(_ v: Double?) -> JSON {
        guard let v, v.isFinite else { return .null }
        return .number(v)
    }

    static func int(_ v: Int?) -> JSON { v.map { .number(Double($0)) } ?? .null }

    func serialized(indent: String = "") -> String {
        let inner = indent + "  "
        switch self {
        case .null: return "null"
        case let .bool(b): return b ? "true" : "false"
        case let .number(v):
            if v == v.rounded(), abs(v) < 1e15 { return String(Int(v)) }
            return String(format: "%.6g", v)
        case let .string(s): return JSON.quote(s)
        case let .array(items):
            if items.isEmpty { return "[]" }
            return "[\n" + items.map { inner + $0.serialized(indent: inner) }.joined(separator: ",\n") + "\n" + indent + "]"
        case let .object(pairs):
            if pairs.isEmpty { return "{}" }
            return "{\n" + pairs.map { inner + JSON.quote($0.0) + ": " + $0.1.serialized(indent: inner) }.joined(separator: ",\n")
                + "\n" + indent + "}"
        }
    }

    static func quote(_ s: String) -> String {
        var out = "\""
        for u in s.unicodeScalars {
            switch u {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            default:
                if u.value < 0x20 { out += String(format: "\\u%04x", u.value) } else { out.unicodeScalars.append(u) }
            }
        }
        return out + "\""
    }
}
