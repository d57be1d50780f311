/// Cuts a TrueType font (glyf outlines; face 0 of a collection) down to the glyphs a text needs
/// without changing how those glyphs draw: every glyph id stays (the glyphs left out become empty),
/// and every table is copied as it is except `glyf` and `loca`, rebuilt, and `post`, whose glyph
/// names (which drawing never reads) are dropped (format 3). The character map, metrics, kerning
/// and hinting programs are the original's, so FreeType draws a kept glyph exactly as before.
public enum FontSubset {
    /// `font` with outlines only for `glyphs`, glyph 0 (the missing-glyph box) and the components
    /// of kept composite glyphs. Fails on a font without `glyf` outlines (CFF) or a broken one.
    public static func subset(_ font: [UInt8], keeping glyphs: Set<Int>) throws(TextError) -> [UInt8] {
        let sfnt = try SFNT(font)
        guard let head = sfnt.table("head"), let maxp = sfnt.table("maxp"), let loca = sfnt.table("loca"), let glyf = sfnt.table("glyf"),
              head.count >= 54, maxp.count >= 6 else {
            throw TextError("only TrueType fonts with glyf outlines can be cut down (this one has no glyf, loca, head or maxp table)")
        }
        let glyphCount = Int(read16(maxp, 4))
        let longOffsets = read16(head, 50) != 0
        func offset(_ i: Int) throws(TextError) -> Int {
            let o = longOffsets ? Int(read32(loca, i * 4)) : Int(read16(loca, i * 2)) * 2
            guard o <= glyf.count else { throw TextError("broken font: glyph \(i) lies outside the glyf table") }
            return o
        }
        guard loca.count >= (glyphCount + 1) * (longOffsets ? 4 : 2) else { throw TextError("broken font: the loca table is too short") }
        var ranges: [Range<Int>] = []
        ranges.reserveCapacity(glyphCount)
        for i in 0..<glyphCount {
            let start = try offset(i), end = try offset(i + 1)
            guard start <= end else { throw TextError("broken font: glyph \(i) ends before it starts") }
            ranges.append(start..<end)
        }
        // The glyphs kept, with the components of composite glyphs, transitively.
        var kept = Set<Int>()
        var pending = Array(glyphs.filter { $0 >= 0 && $0 < glyphCount }) + [0]
        while let g = pending.popLast() {
            guard kept.insert(g).inserted else { continue }
            pending += try components(of: Array(glyf[ranges[g]])).filter { $0 < glyphCount && !kept.contains($0) }
        }
        var newGlyf: [UInt8] = []
        var offsets: [Int] = [0]
        for g in 0..<glyphCount {
            if kept.contains(g) {
                newGlyf += glyf[ranges[g]]
                while newGlyf.count % 4 != 0 { newGlyf.append(0) }
            }
            offsets.append(newGlyf.count)
        }
        var newHead = head
        let useLong = longOffsets || newGlyf.count / 2 > 0xFFFF
        if useLong != longOffsets { write16(&newHead, 50, 1) }
        var newLoca: [UInt8] = []
        for o in offsets {
            if useLong { append32(&newLoca, UInt32(o)) } else { append16(&newLoca, UInt16(o / 2)) }
        }
        var tables = sfnt.tables.filter { $0.tag != "DSIG" }
        for i in tables.indices {
            switch tables[i].tag {
            case "glyf": tables[i].bytes = newGlyf
            case "loca": tables[i].bytes = newLoca
            case "head": tables[i].bytes = newHead
            case "post" where tables[i].bytes.count >= 32:
                var post = Array(tables[i].bytes.prefix(32))
                write32(&post, 0, 0x0003_0000)
                tables[i].bytes = post
            default: break
            }
        }
        return SFNT.write(version: sfnt.version, tables: tables)
    }

    /// The glyph ids a glyph's outline is made of when it is a composite (a negative contour count).
    static func components(of glyph: [UInt8]) throws(TextError) -> [Int] {
        guard glyph.count >= 10, Int16(bitPattern: read16(glyph, 0)) < 0 else { return [] }
        var result: [Int] = []
        var at = 10
        while true {
            guard at + 4 <= glyph.count else { throw TextError("broken font: a composite glyph ends inside a component") }
            let flags = read16(glyph, at)
            result.append(Int(read16(glyph, at + 2)))
            at += 4 + (flags & 0x0001 != 0 ? 4 : 2)
            if flags & 0x0008 != 0 { at += 2 } else if flags & 0x0040 != 0 { at += 4 } else if flags & 0x0080 != 0 { at += 8 }
            guard flags & 0x0020 != 0 else { return result }
        }
    }

    /// The strings of a font's `name` table by name id (Windows Unicode records first, else Mac
    /// Roman ones read as Latin-1): 1 family, 2 style, 4 full name, 13 licence, 14 licence URL.
    public static func names(_ font: [UInt8]) -> [Int: String] {
        guard let sfnt = try? SFNT(font), let name = sfnt.table("name"), name.count >= 6 else { return [:] }
        let count = Int(read16(name, 2)), storage = Int(read16(name, 4))
        var found: [Int: (rank: Int, text: String)] = [:]
        for r in 0..<count {
            let at = 6 + r * 12
            guard at + 12 <= name.count else { break }
            let platform = read16(name, at), language = read16(name, at + 4), id = Int(read16(name, at + 6))
            let length = Int(read16(name, at + 8)), start = storage + Int(read16(name, at + 10))
            guard start + length <= name.count else { continue }
            let bytes = Array(name[start..<(start + length)])
            let text: String, rank: Int
            if platform == 3 || platform == 0 {
                let units = stride(from: 0, to: bytes.count - 1, by: 2).map { UInt16(bytes[$0]) << 8 | UInt16(bytes[$0 + 1]) }
                text = String(decoding: units, as: UTF16.self)
                rank = platform == 3 && language == 0x0409 ? 0 : 1
            } else if platform == 1 {
                text = String(bytes.map { Character(Unicode.Scalar($0)) })
                rank = language == 0 ? 2 : 3
            } else {
                continue
            }
            if found[id].map({ rank < $0.rank }) ?? true { found[id] = (rank, text) }
        }
        return found.mapValues(\.text)
    }
}

/// The table directory of an OpenType/TrueType file (face 0 of a collection) and its tables.
struct SFNT {
    struct Table { var tag: String; var bytes: [UInt8] }
    var version: UInt32
    var tables: [Table]

    init(_ font: [UInt8]) throws(TextError) {
        guard font.count >= 12 else { throw TextError("not a font file (too short)") }
        var directory = 0
        if read32(font, 0) == 0x7474_6366 {  // "ttcf": a collection; face 0's directory
            guard font.count >= 16 else { throw TextError("broken font collection") }
            directory = Int(read32(font, 12))
        }
        guard directory + 12 <= font.count else { throw TextError("broken font: no table directory") }
        version = read32(font, directory)
        let count = Int(read16(font, directory + 4))
        tables = []
        for i in 0..<count {
            let at = directory + 12 + i * 16
            guard at + 16 <= font.count else { throw TextError("broken font: the table directory is cut short") }
            let tag = String(decoding: font[at..<(at + 4)], as: UTF8.self)
            let offset = Int(read32(font, at + 8)), length = Int(read32(font, at + 12))
            guard offset + length <= font.count else { throw TextError("broken font: the \(tag) table lies outside the file") }
            tables.append(Table(tag: tag, bytes: Array(font[offset..<(offset + length)])))
        }
    }

    func table(_ tag: String) -> [UInt8]? { tables.first { $0.tag == tag }?.bytes }

    /// A font file of `tables`: directory sorted by tag, each table 4-byte aligned, checksums and
    /// head's checkSumAdjustment computed.
    static func write(version: UInt32, tables: [Table]) -> [UInt8] {
        let sorted = tables.sorted { Array($0.tag.utf8).lexicographicallyPrecedes(Array($1.tag.utf8)) }
        var out: [UInt8] = []
        append32(&out, version)
        append16(&out, UInt16(sorted.count))
        var power = 1, log = 0
        while power * 2 <= sorted.count { power *= 2; log += 1 }
        append16(&out, UInt16(power * 16)); append16(&out, UInt16(log)); append16(&out, UInt16(sorted.count * 16 - power * 16))
        var offset = 12 + 16 * sorted.count
        var data: [UInt8] = []
        var headAt: Int?
        for t in sorted {
            var bytes = t.bytes
            if t.tag == "head", bytes.count >= 12 { write32(&bytes, 8, 0); headAt = offset }
            out += Array(t.tag.utf8); append32(&out, checksum(bytes)); append32(&out, UInt32(offset)); append32(&out, UInt32(bytes.count))
            data += bytes
            while data.count % 4 != 0 { data.append(0) }
            offset = 12 + 16 * sorted.count + data.count
        }
        out += data
        if let headAt { write32(&out, headAt + 8, 0xB1B0_AFBA &- checksum(out)) }
        return out
    }

    static func checksum(_ bytes: [UInt8]) -> UInt32 {
        var sum: UInt32 = 0
        var i = 0
        while i < bytes.count {
            var word: UInt32 = 0
            for k in 0..<4 { word = word << 8 | UInt32(i + k < bytes.count ? bytes[i + k] : 0) }
            sum &+= word
            i += 4
        }
        return sum
    }
}

func read16(_ b: [UInt8], _ at: Int) -> UInt16 { UInt16(b[at]) << 8 | UInt16(b[at + 1]) }
func read32(_ b: [UInt8], _ at: Int) -> UInt32 { UInt32(read16(b, at)) << 16 | UInt32(read16(b, at + 2)) }
func write16(_ b: inout [UInt8], _ at: Int, _ v: UInt16) { b[at] = UInt8(v >> 8); b[at + 1] = UInt8(v & 0xFF) }
func write32(_ b: inout [UInt8], _ at: Int, _ v: UInt32) { write16(&b, at, UInt16(v >> 16)); write16(&b, at + 2, UInt16(v & 0xFFFF)) }
func append16(_ b: inout [UInt8], _ v: UInt16) { b.append(UInt8(v >> 8)); b.append(UInt8(v & 0xFF)) }
func append32(_ b: inout [UInt8], _ v: UInt32) { append16(&b, UInt16(v >> 16)); append16(&b, UInt16(v & 0xFFFF)) }
