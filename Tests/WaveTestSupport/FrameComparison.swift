/// The first differing pixel of two RGBA canvases (`width` pixels a row), for readable test
/// failures; nil when they are equal.
public func firstDifference(_ a: [UInt8], _ b: [UInt8], width: Int) -> String? {
    guard a.count == b.count else { return "sizes \(a.count) and \(b.count)" }
    for p in stride(from: 0, to: a.count, by: 4) where a[p..<p + 4] != b[p..<p + 4] {
        let i = p / 4
        return "pixel \(i % width),\(i / width): \(Array(a[p..<p + 4])) vs \(Array(b[p..<p + 4]))"
    }
    return nil
}
