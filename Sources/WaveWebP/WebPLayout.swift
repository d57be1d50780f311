/// An animated WebP file's layout read without decoding it: where each frame's bytes lie.
public enum WebPLayout {
    /// Each ANMF frame of an animated WebP: when it starts (in milliseconds from the file's start)
    /// and its chunk's bytes; nil for a file that does not parse or has no frames.
    public static func imageSizes(_ b: [UInt8]) -> [(start: Int, size: Int)]? {
        guard b.count > 12, b[0..<4].elementsEqual("RIFF".utf8), b[8..<12].elementsEqual("WEBP".utf8) else { return nil }
        func le(_ at: Int, _ n: Int) -> Int { (0..<n).reduce(0) { $0 | Int(b[at + $1]) << (8 * $1) } }
        var p = 12, time = 0
        var images: [(start: Int, size: Int)] = []
        while p + 8 <= b.count {
            let size = le(p + 4, 4)
            let end = p + 8 + size + (size & 1)
            guard end <= b.count else { return nil }
            if b[p..<(p + 4)].elementsEqual("ANMF".utf8) {
                guard size >= 16 else { return nil }
                images.append((time, end - p))
                time += le(p + 8 + 12, 3)
            }
            p = end
        }
        return images.isEmpty ? nil : images
    }
}
