import Testing
@testable import WaveGIF
import WaveTestSupport

/// A frame's exact renditions (every pixel as it is, unchanged pixels as the key, and the mix) are
/// coded with the one that won the coder's frame before first (`LZWCoder.lead`), so the others
/// stop at its length. Whatever the lead, the rendition chosen and its bytes must be the ones
/// coding them in the list's order gives (lead 0), ties going to the first in the list.
@Suite struct RenditionLeadTests {
    @Test(arguments: [nil, 3] as [Int?])
    func everyLeadChoosesAsTheListOrder(transparent: Int?) throws {
        let width = 48, height = 20
        let colors = distinctColors(24)
        var winners = Set<Int>()
        for seed in UInt64(1)...8 {
            // Frames with runs, noise and blobs: from frame to frame a little or a lot changes.
            let frames = HeldFramesTests.frames(count: 12, width: width, height: height,
                                                transparent: transparent.map(UInt8.init), seed: seed, repeats: false)
            let encoder = try GIFEncoder(width: width, height: height, colors: colors, transparentIndex: transparent,
                                         loops: 0, colorOrder: .asGiven, codesItself: true)
            for k in 1..<frames.count {
                let changed = frames[k].withUnsafeBufferPointer { f in
                    frames[k - 1].withUnsafeBufferPointer { p in PixelRect.differing(f, p, width: width) }
                }
                var results: [(bits: Int, useKey: Bool, pixels: [UInt8], blocks: [UInt8]?, lead: Int)] = []
                for lead in 0..<3 {
                    var coder = LZWCoder(), sizer = LZWSizer()
                    coder.lead = lead
                    guard let r = encoder.exactRendition(frames[k], over: frames[k - 1], changed: changed, clear: .empty,
                                                         isFirst: false, coder: &coder, sizer: &sizer) else {
                        Issue.record("seed \(seed) frame \(k): no rendition")
                        continue
                    }
                    results.append((r.bits, r.useKey, r.pixels, r.blocks, coder.lead))
                }
                guard results.count == 3 else { continue }
                winners.insert(results[0].lead)
                for r in results.dropFirst() {
                    let same = r.bits == results[0].bits && r.useKey == results[0].useKey && r.pixels == results[0].pixels
                        && r.blocks == results[0].blocks && r.lead == results[0].lead
                    #expect(same, "seed \(seed) frame \(k): lead gave \(r.bits) bits (rendition \(r.lead)), the list's order \(results[0].bits) (rendition \(results[0].lead))")
                }
            }
        }
        // The frames make more than one rendition win (with a key to use).
        if transparent != nil { #expect(winners.count > 1, "winners \(winners)") }
    }
}
