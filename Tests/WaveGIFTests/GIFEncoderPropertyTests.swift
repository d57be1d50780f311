import Testing
import WaveTestSupport

/// The fuzz target's GIF check (`GIFEncoderCheck`) on seeded inputs: every lossy bound, color
/// count, color order, transparent index and matte it can draw, each file decoded by giflib and
/// compared pixel by pixel with the exact frames.
@Suite struct GIFEncoderPropertyTests {
    @Test(arguments: 0..<4)
    func randomFramesKeepTheEncodersPromises(batch: Int) {
        var random = SeededGenerator(state: UInt64(1000 + batch))
        var lossyCases = 0
        for _ in 0..<150 {
            let length = [8, 16, 40, 120, 400][Int(random.next() % 5)]
            let bytes = (0..<length).map { _ in UInt8(truncatingIfNeeded: random.next()) }
            if bytes[4] % 10 != 0 { lossyCases += 1 }
            if let problem = GIFEncoderCheck.problem(bytes) {
                Issue.record("\(problem); input \(bytes)")
                return
            }
        }
        #expect(lossyCases > 100)
    }

    /// The check itself can fail: the same file with its two table entries swapped shows every
    /// pixel in the other color.
    @Test func theCheckCatchesWrongPixels() {
        // 4×4, 2 colors, no transparency, lossy 0, one frame, table in the given order; 8 pixels
        // of each index.
        let bytes: [UInt8] = [3, 3, 1, 0, 0, 0, 0, 1, 0, 0, 7, 1, 7]
        #expect(GIFEncoderCheck.problem(bytes) == nil)
        let problem = GIFEncoderCheck.problem(bytes) { file in
            for c in 0..<3 { file.swapAt(13 + c, 16 + c) }
        }
        #expect(problem?.hasPrefix("GIF frame 0 pixel 0,0: off by") == true, "\(problem ?? "no problem found")")
    }
}
