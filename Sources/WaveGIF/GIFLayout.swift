/// A GIF file's layout read without decoding it: where each image's bytes lie.
public enum GIFLayout {
    /// Each image of a GIF: when it starts (in delay units, hundredths of a second, from the file's
    /// start) and its bytes with the extension blocks before it; nil for a file that does not parse.
    public static func imageSizes(_ b: [UInt8]) -> [(start: Int, size: Int)]? {
        guard b.count > 13 else { return nil }
        var p = 13
        if b[10] & 0x80 != 0 { p += 3 << (Int(b[10] & 7) + 1) }
        var images: [(start: Int, size: Int)] = []
        var last = p, time = 0, delay = 0
        func skipBlocks() -> Bool {
            while p < b.count && b[p] != 0 { p += Int(b[p]) + 1 }
            p += 1
            return p <= b.count
        }
        while p < b.count {
            switch b[p] {
            case 0x21:
                guard p + 1 < b.count else { return nil }
                if b[p + 1] == 0xF9, p + 5 < b.count { delay = Int(b[p + 4]) | Int(b[p + 5]) << 8 }
                p += 2
                guard skipBlocks() else { return nil }
            case 0x2C:
                guard p + 10 < b.count else { return nil }
                let flags = b[p + 9]
                p += 10
                if flags & 0x80 != 0 { p += 3 << (Int(flags & 7) + 1) }
                p += 1
                guard skipBlocks() else { return nil }
                images.append((time, p - last))
                last = p
                time += delay
            case 0x3B:
                p = b.count
            default:
                return nil
            }
        }
        return images
    }
}
