import WaveGIF

/// The RGBA a browser shows for frames of palette indices: the palette color, opaque, or
/// 0,0,0,0 where the index is the transparent one.
public func expand(_ indices: [UInt8], _ colors: [RGBA8], transparent: Int?) -> [UInt8] {
    var out: [UInt8] = []
    out.reserveCapacity(indices.count * 4)
    for i in indices {
        if Int(i) == transparent {
            out += [0, 0, 0, 0]
        } else {
            let c = colors[Int(i)]
            out += [c.r, c.g, c.b, 255]
        }
    }
    return out
}

/// 8-bit levels of the largest channel difference between two RGBA pixels at pixel `p` (straight
/// RGBA as decoded: GIF pixels are opaque or 0,0,0,0, so this is also the premultiplied difference).
public func channelError(_ a: [UInt8], _ b: [UInt8], _ p: Int) -> Int {
    (0..<4).map { abs(Int(a[p * 4 + $0]) - Int(b[p * 4 + $0])) }.max()!
}

/// Whether pixel `p` of a frame of palette indices `width` wide is flat: its 4 neighbours inside
/// the frame have its index (the pixels a lossy GIF must keep exact).
public func isFlat(_ indices: [UInt8], _ p: Int, width: Int) -> Bool {
    let x = p % width
    var neighbours: [Int] = []
    if x > 0 { neighbours.append(p - 1) }
    if x + 1 < width { neighbours.append(p + 1) }
    if p >= width { neighbours.append(p - width) }
    if p + width < indices.count { neighbours.append(p + width) }
    return neighbours.allSatisfy { indices[$0] == indices[p] }
}
