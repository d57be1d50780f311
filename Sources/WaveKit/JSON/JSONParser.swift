/// A strict JSON parser (RFC 8259) that records line and column of every value and reports the
/// first syntax error with its position. Depth is bounded so that hostile input cannot exhaust the stack.
public struct JSONParser {
    /// A syntax error at a 1-based line and column.
    public struct SyntaxError: Error, Equatable, Sendable {
        public var message: String
        public var line: Int
        public var column: Int
    }

    /// The deepest nesting of arrays and objects accepted.
    public static let maximumDepth = 64

    private let bytes: [UInt8]
    private var index = 0
    private var line = 1
    private var lineStart = 0

    private init(bytes: [UInt8]) { self.bytes = bytes }

    /// Parses one JSON value that must span the whole input (whitespace aside).
    public static func parse(_ bytes: [UInt8]) throws(SyntaxError) -> JSONNode {
        var parser = JSONParser(bytes: bytes)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
            throw SyntaxError(message: "file starts with a byte-order mark; save it as UTF-8 without BOM", line: 1, column: 1)
        }
        parser.skipWhitespace()
        if parser.index == bytes.count { throw parser.error("empty document; expected a JSON object") }
        let node = try parser.parseValue(depth: 0)
        parser.skipWhitespace()
        if parser.index < bytes.count {
            throw parser.error("unexpected \(parser.describeCurrent()) after the end of the document")
        }
        return node
    }

    /// Parses UTF-8 text.
    public static func parse(_ text: String) throws(SyntaxError) -> JSONNode {
        try parse(Array(text.utf8))
    }

    private var column: Int { index - lineStart + 1 }

    private func error(_ message: String) -> SyntaxError {
        SyntaxError(message: message, line: line, column: column)
    }

    private func describeCurrent() -> String {
        guard index < bytes.count else { return "end of file" }
        let b = bytes[index]
        if b >= 0x20 && b < 0x7F { return "'\(Character(Unicode.Scalar(b)))'" }
        return "byte 0x" + String(b, radix: 16, uppercase: true)
    }

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0D: index += 1
            case 0x0A: index += 1; line += 1; lineStart = index
            default: return
            }
        }
    }

    private mutating func parseValue(depth: Int) throws(SyntaxError) -> JSONNode {
        guard index < bytes.count else { throw error("unexpected end of file; expected a value") }
        let startLine = line, startColumn = column
        let value: JSONValue
        switch bytes[index] {
        case UInt8(ascii: "{"): value = try parseObject(depth: depth + 1)
        case UInt8(ascii: "["): value = try parseArray(depth: depth + 1)
        case UInt8(ascii: "\""): value = .string(try parseString())
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): value = .number(try parseNumber())
        case UInt8(ascii: "/"): throw error("comments are not allowed in JSON; use a \"_comment\" key instead")
        case UInt8(ascii: "'"): throw error("strings must use double quotes")
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"):
            let w = word()
            switch w {
            case "true": value = .bool(true)
            case "false": value = .bool(false)
            case "null": value = .null
            case _ where JSONParser.isNonFinite(w): throw error("NaN and Infinity are not JSON numbers")
            default: throw error("unexpected \(JSONParser.quoted(w)); expected a value")
            }
            index += w.utf8.count
        default: throw error("unexpected \(describeCurrent()); expected a value")
        }
        return JSONNode(value, line: startLine, column: startColumn)
    }

    /// The run of ASCII letters at the current position (a literal, or a word that is none).
    private func word() -> String {
        var end = index
        while end < bytes.count, JSONParser.isLetter(bytes[end]) { end += 1 }
        return String(decoding: bytes[index..<end], as: UTF8.self)
    }

    private static func isLetter(_ b: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(b) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(b)
    }

    /// Whether a word is a spelling of a non-finite number that other languages write in JSON-like
    /// text (`NaN`, `Infinity`, Python's `nan` and `inf`); only such a word gets that hint, so
    /// `Name` or `Nope` is reported as what it is.
    private static func isNonFinite(_ word: String) -> Bool {
        ["nan", "inf", "infinity"].contains(word.lowercased())
    }

    /// A word as an error message shows it: quoted, cut after 20 characters.
    private static func quoted(_ word: String) -> String {
        "'" + (word.count > 20 ? word.prefix(20) + "…" : word) + "'"
    }

    private mutating func parseObject(depth: Int) throws(SyntaxError) -> JSONValue {
        if depth > JSONParser.maximumDepth { throw error("nesting deeper than \(JSONParser.maximumDepth) levels") }
        index += 1
        var members: [(key: String, value: JSONNode)] = []
        var seen = Set<String>()
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") { index += 1; return .object(members) }
        while true {
            skipWhitespace()
            guard index < bytes.count else { throw error("unexpected end of file inside an object") }
            guard bytes[index] == UInt8(ascii: "\"") else {
                if bytes[index] == UInt8(ascii: "}") { throw error("trailing comma before '}'") }
                if bytes[index] == UInt8(ascii: "/") { throw error("comments are not allowed in JSON; use a \"_comment\" key instead") }
                if bytes[index] == UInt8(ascii: "'") { throw error("strings must use double quotes") }
                throw error("unexpected \(describeCurrent()); expected a key in double quotes")
            }
            let keyLine = line, keyColumn = column
            let key = try parseString()
            if !seen.insert(key).inserted {
                throw SyntaxError(message: "duplicate key \"\(key)\"", line: keyLine, column: keyColumn)
            }
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else {
                throw error("unexpected \(describeCurrent()); expected ':' after key \"\(key)\"")
            }
            index += 1
            skipWhitespace()
            let value = try parseValue(depth: depth)
            members.append((key, value))
            skipWhitespace()
            guard index < bytes.count else { throw error("unexpected end of file inside an object; expected ',' or '}'") }
            if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
            if bytes[index] == UInt8(ascii: "}") { index += 1; return .object(members) }
            throw error("unexpected \(describeCurrent()); expected ',' or '}'")
        }
    }

    private mutating func parseArray(depth: Int) throws(SyntaxError) -> JSONValue {
        if depth > JSONParser.maximumDepth { throw error("nesting deeper than \(JSONParser.maximumDepth) levels") }
        index += 1
        var items: [JSONNode] = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") { index += 1; return .array(items) }
        while true {
            skipWhitespace()
            if index < bytes.count, bytes[index] == UInt8(ascii: "]") { throw error("trailing comma before ']'") }
            items.append(try parseValue(depth: depth))
            skipWhitespace()
            guard index < bytes.count else { throw error("unexpected end of file inside an array; expected ',' or ']'") }
            if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
            if bytes[index] == UInt8(ascii: "]") { index += 1; return .array(items) }
            throw error("unexpected \(describeCurrent()); expected ',' or ']'")
        }
    }

    private mutating func parseString() throws(SyntaxError) -> String {
        index += 1
        var scalars = String.UnicodeScalarView()
        var run: [UInt8] = []
        func flush(_ run: inout [UInt8], into scalars: inout String.UnicodeScalarView) -> Bool {
            if run.isEmpty { return true }
            guard let s = String(validating: run, as: UTF8.self) else { return false }
            scalars.append(contentsOf: s.unicodeScalars)
            run.removeAll(keepingCapacity: true)
            return true
        }
        while true {
            guard index < bytes.count else { throw error("unexpected end of file inside a string") }
            let b = bytes[index]
            switch b {
            case UInt8(ascii: "\""):
                guard flush(&run, into: &scalars) else { throw error("string is not valid UTF-8") }
                index += 1
                return String(scalars)
            case UInt8(ascii: "\\"):
                guard flush(&run, into: &scalars) else { throw error("string is not valid UTF-8") }
                index += 1
                guard index < bytes.count else { throw error("unexpected end of file inside a string") }
                let e = bytes[index]
                index += 1
                switch e {
                case UInt8(ascii: "\""): scalars.append("\"")
                case UInt8(ascii: "\\"): scalars.append("\\")
                case UInt8(ascii: "/"): scalars.append("/")
                case UInt8(ascii: "b"): scalars.append("\u{08}")
                case UInt8(ascii: "f"): scalars.append("\u{0C}")
                case UInt8(ascii: "n"): scalars.append("\n")
                case UInt8(ascii: "r"): scalars.append("\r")
                case UInt8(ascii: "t"): scalars.append("\t")
                case UInt8(ascii: "u"):
                    var code = try parseHex4()
                    if (0xD800...0xDBFF).contains(code) {
                        guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
                            throw error("unpaired surrogate in \\u escape")
                        }
                        index += 2
                        let low = try parseHex4()
                        guard (0xDC00...0xDFFF).contains(low) else { throw error("unpaired surrogate in \\u escape") }
                        code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                    }
                    guard let scalar = Unicode.Scalar(code) else { throw error("invalid \\u escape") }
                    scalars.append(scalar)
                default:
                    index -= 1
                    throw error("invalid escape '\\\(describeCurrent())' in a string")
                }
            case 0x00..<0x20:
                throw error(b == 0x0A ? "unterminated string (a newline inside quotes)" : "control character inside a string; escape it")
            default:
                run.append(b)
                index += 1
            }
        }
    }

    private mutating func parseHex4() throws(SyntaxError) -> UInt32 {
        guard index + 4 <= bytes.count else { throw error("unexpected end of file in a \\u escape") }
        var code: UInt32 = 0
        for _ in 0..<4 {
            let b = bytes[index]
            let digit: UInt32
            switch b {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(b - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(b - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(b - UInt8(ascii: "A") + 10)
            default: throw error("invalid hex digit in a \\u escape")
            }
            code = code << 4 | digit
            index += 1
        }
        return code
    }

    private mutating func parseNumber() throws(SyntaxError) -> Double {
        let start = index
        func digits(_ p: inout JSONParser) -> Int {
            var n = 0
            while p.index < p.bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(p.bytes[p.index]) { p.index += 1; n += 1 }
            return n
        }
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard index < bytes.count else { throw error("unexpected end of file in a number") }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
            if index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) {
                throw error("numbers must not have leading zeros")
            }
        } else if digits(&self) == 0 {
            if JSONParser.isNonFinite(word()) { throw error("NaN and Infinity are not JSON numbers") }
            throw error("invalid number")
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            if digits(&self) == 0 { throw error("invalid number: expected digits after '.'") }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            if digits(&self) == 0 { throw error("invalid number: expected digits in the exponent") }
        }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        guard let value = Double(text), value.isFinite else {
            index = start
            throw error("number \(text) is out of range")
        }
        return value
    }
}
