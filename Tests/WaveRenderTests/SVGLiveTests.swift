import Testing
@testable import WaveRender

/// The runs a live label's glyph is shown over, and the CSS opacity of each, against a slow
/// reference: the opacity's terms evaluated here for every percent must be 1 exactly on the run.
@Suite struct SVGLiveTests {
    /// The percents a run stands for, listed one by one.
    func members(_ run: SVGLive.Run) -> [Int] { Array(stride(from: run.lo, through: run.hi, by: run.step)) }

    /// What `SVGLive.opacity` writes, evaluated for percent p as CSS would: clamp(0, min(terms), 1)
    /// with mod() taking the divisor's sign.
    func shown(_ run: SVGLive.Run, at p: Int) -> Int {
        var terms: [Int] = []
        if run.lo > 0 { terms.append(p - (run.lo - 1)) }
        if run.hi < 100 { terms.append(run.hi + 1 - p) }
        if run.step > 1, run.lo < run.hi { terms.append(1 - (((p - run.lo) % run.step) + run.step) % run.step) }
        return max(0, min(terms.min() ?? 1, 1))
    }

    @Test func runsCoverExactlyTheirPercents() {
        var generator = SystemRandomNumberGenerator()
        var sets: [[Int]] = [[0], [100], Array(0...100), [5, 15, 25, 35], [1, 10, 11, 12, 100], Array(stride(from: 13, through: 93, by: 10))]
        for _ in 0..<500 {
            sets.append((0...100).filter { _ in Int.random(in: 0..<4, using: &generator) == 0 })
        }
        for set in sets where !set.isEmpty {
            let runs = SVGLive.runs(set)
            #expect(runs.flatMap(members).sorted() == set, "\(set) → \(runs)")
            for p in 0...100 {
                let total = runs.map { shown($0, at: p) }.reduce(0, +)
                #expect(total == (set.contains(p) ? 1 : 0), "\(set) at \(p)")
            }
        }
    }

    /// The opacity text has the terms `shown` evaluates, in that order.
    @Test func opacityTextMatchesTheReference() {
        let p = "var(--_p)"
        #expect(SVGLive.opacityText(SVGLive.Run(lo: 0, hi: 100, step: 1)) == "1")
        #expect(SVGLive.opacityText(SVGLive.Run(lo: 0, hi: 0, step: 1)) == "clamp(0,1 - \(p),1)")
        #expect(SVGLive.opacityText(SVGLive.Run(lo: 1, hi: 100, step: 1)) == "clamp(0,\(p),1)")
        #expect(SVGLive.opacityText(SVGLive.Run(lo: 13, hi: 93, step: 10)) == "clamp(0,min(\(p) - 12,94 - \(p),1 - mod(\(p) - 13,10)),1)")
    }
}
