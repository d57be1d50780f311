/// Base64 (RFC 4648, the standard alphabet with `=` padding), as data URIs and the bundled
/// images and font carry their bytes.
public enum Base64 {
    static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    /// The 6-bit value of each ASCII byte of the alphabet, 0xFF for every other byte.
    static let values: [UInt8] = {
        var table = [UInt8](repeating: 0xFF, count: 256)
        for (i, c) in alphabet.enumerated() { table[Int(c)] = UInt8(i) }
        return table
    }()

    /// `bytes` as base64 text, padded with `=` to a multiple of 4 characters, without line breaks.
    public static func encode(_ bytes: [UInt8]) -> String {
        var out: [UInt8] = []
        out.reserveCapacity((bytes.count + 2) / 3 * 4)
        var i = 0
        while i + 3 <= bytes.count {
            let n = UInt32(bytes[i]) << 16 | UInt32(bytes[i + 1]) << 8 | UInt32(bytes[i + 2])
            for shift in [18, 12, 6, 0] { out.append(alphabet[Int(n >> UInt32(shift) & 63)]) }
            i += 3
        }
        let rest = bytes.count - i
        if rest > 0 {
            let n = UInt32(bytes[i]) << 16 | (rest == 2 ? UInt32(bytes[i + 1]) << 8 : 0)
            out.append(alphabet[Int(n >> 18 & 63)])
            out.append(alphabet[Int(n >> 12 & 63)])
            out.append(rest == 2 ? alphabet[Int(n >> 6 & 63)] : UInt8(ascii: "="))
            out.append(UInt8(ascii: "="))
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The bytes `text` encodes, or nil when it is not base64: a character outside the alphabet, a
    /// length that is not a multiple of 4, or padding anywhere but at the end.
    public static func decode<Text: Collection<UInt8>>(_ text: Text) -> [UInt8]? {
        guard text.count % 4 == 0 else { return nil }
        var sextets: [UInt8] = []
        sextets.reserveCapacity(text.count)
        var padding = 0
        for c in text {
            if c == UInt8(ascii: "=") {
                padding += 1
                continue
            }
            let v = values[Int(c)]
            guard v != 0xFF, padding == 0 else { return nil }
            sextets.append(v)
        }
        guard padding <= 2 else { return nil }
        return assemble(sextets)
    }

    /// The bytes of the base64 characters in `text`, every other character (line breaks, spaces)
    /// skipped, decoding up to the first `=`; nil when the characters leave a lone 6 bits.
    public static func decodeIgnoringOtherCharacters(_ text: String) -> [UInt8]? {
        var sextets: [UInt8] = []
        sextets.reserveCapacity(text.utf8.count)
        for c in text.utf8 {
            if c == UInt8(ascii: "=") { break }
            let v = values[Int(c)]
            if v != 0xFF { sextets.append(v) }
        }
        return assemble(sextets)
    }

    /// Packs 6-bit values into bytes; a final group of 2 or 3 values gives 1 or 2 bytes.
    private static func assemble(_ sextets: [UInt8]) -> [UInt8]? {
        guard sextets.count % 4 != 1 else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(sextets.count / 4 * 3 + 2)
        var i = 0
        while i + 4 <= sextets.count {
            let n = UInt32(sextets[i]) << 18 | UInt32(sextets[i + 1]) << 12 | UInt32(sextets[i + 2]) << 6 | UInt32(sextets[i + 3])
            bytes.append(UInt8(n >> 16 & 0xFF))
            bytes.append(UInt8(n >> 8 & 0xFF))
            bytes.append(UInt8(n & 0xFF))
            i += 4
        }
        let rest = sextets.count - i
        if rest >= 2 {
            var n = UInt32(sextets[i]) << 18 | UInt32(sextets[i + 1]) << 12
            if rest == 3 { n |= UInt32(sextets[i + 2]) << 6 }
            bytes.append(UInt8(n >> 16 & 0xFF))
            if rest == 3 { bytes.append(UInt8(n >> 8 & 0xFF)) }
        }
        return bytes
    }
}
