import Testing
@testable import WaveKit

func config(speeds: [Double], fps: Double, duration: LoopDuration = .auto, tolerance: Double = 0.02,
            minFrames: Int = 8, maxFrames: Int = 300) -> WaveConfig {
    WaveConfig(fps: fps, duration: duration, minFrames: minFrames, maxFrames: maxFrames, speedTolerance: tolerance,
               layers: speeds.map { Layer(color: .black, amplitude: 5, wavelength: 64, speed: $0) })
}

@Suite struct LoopPlannerTests {
    @Test func examplesFromTheSpecification() throws {
        let a = try LoopPlanner.plan(config(speeds: [0.5, -1.0], fps: 50))
        #expect(a.frameCount == 100 && a.rule == .exact)
        #expect(a.layers.map(\.cycles) == [1, -2])
        let b = try LoopPlanner.plan(config(speeds: [1 / 2.56], fps: 50))
        #expect(b.frameCount == 128 && b.rule == .exact)
        let c = try LoopPlanner.plan(config(speeds: [0.37, 0.6], fps: 30))
        #expect(c.frameCount == 246 && c.rule == .nudged)
        #expect(abs(c.duration - 8.2) < 1e-12)
        #expect(abs(c.layers[0].change - 0.0112) < 0.0005)
        #expect(abs(c.layers[1].change - 0.0163) < 0.0005)
    }

    @Test func zeroSpeedNeverConstrains() throws {
        let p = try LoopPlanner.plan(config(speeds: [0, 0], fps: 50))
        #expect(p.frameCount == 8)
        let q = try LoopPlanner.plan(config(speeds: [0, 0.5], fps: 50))
        #expect(q.frameCount == 100)
    }

    @Test func noLoopNamesTheNearestPlan() throws {
        do {
            _ = try LoopPlanner.plan(config(speeds: [0.37, 0.6], fps: 30, tolerance: 0.001, maxFrames: 60))
            Issue.record("planned")
        } catch {
            let text = error.description
            #expect(text.contains("no loop of 8…60 frames closes with speed changes within 0.1 %"), "\(text)")
            #expect(text.contains("layer 0 speed 0.37 →"))
            // The advice names the smallest maxFrames that closes, found here the slow way.
            let fits = try #require((61...WaveConfig.maximumFrames).first { n in
                [0.37, 0.6].allSatisfy { s in
                    let c = s * Double(n) / 30
                    return abs(c.rounded() - c) / c <= 0.001 + 1e-9
                }
            })
            #expect(text.hasSuffix("; set \"maxFrames\": \(fits) (\(fits) frames at 30 fps close a \(NumberText.decimal(Double(fits) / 30, places: 2)) s loop), raise speedTolerance, or set a duration"), "\(text)")
            let planned = try LoopPlanner.plan(config(speeds: [0.37, 0.6], fps: 30, tolerance: 0.001, maxFrames: fits))
            #expect(planned.frameCount == fits)
        }
    }

    /// Without a maxFrames, a preset above 50 fps may plan 6 s of frames, so a 2 s loop closes
    /// exactly at any rate up to the 240 fps ceiling; at 50 fps and below the bound stays 300.
    @Test func defaultMaxFramesFollowsTheFrameRate() throws {
        for fps in [10.0, 30, 50, 50.5, 60, 120, 151, 200, 240] {
            let root = try JSONParser.parse(Array("{\"fps\": \(fps), \"layers\": [{\"color\": \"#000000\", \"speed\": 0.5}]}".utf8))
            guard case let .success(c) = WaveConfig.decode(root, defaultName: "p") else { Issue.record("\(fps) did not decode"); continue }
            #expect(c.maxFrames == max(300, Int((6 * fps).rounded(.up))))
            let plan = try LoopPlanner.plan(c)
            #expect(plan.rule == .exact && abs(plan.duration - 2) < 1e-9, "\(fps) fps: \(plan.frameCount) frames")
        }
    }

    @Test func fixedDurationRoundsSpeedsAndWarns() throws {
        let p = try LoopPlanner.plan(config(speeds: [0.37], fps: 30, duration: .seconds(2)))
        #expect(p.frameCount == 60)
        #expect(p.layers[0].cycles == 1)
        #expect(p.warnings.count == 1)
        #expect(throws: PlanError.self) { try LoopPlanner.plan(config(speeds: [0.37], fps: 30, duration: .seconds(2)), strict: true) }
    }

    /// Every plan closes exactly, stays within tolerance, and its delays add up to the duration.
    @Test(arguments: [12.0, 24, 25, 30, 50, 60, 100, 120])
    func propertiesOverManySpeeds(fps: Double) throws {
        var seed: UInt64 = 0x9E3779B97F4A7C15
        func next() -> Double {
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            return Double(seed >> 11) / Double(1 << 53)
        }
        for _ in 0..<40 {
            let speeds = (0..<Int(1 + next() * 3)).map { _ in ((next() * 4 - 2) * 100).rounded() / 100 }
            let plan: LoopPlan
            do { plan = try LoopPlanner.plan(config(speeds: speeds, fps: fps, maxFrames: 600)) } catch { continue }
            #expect(plan.maximumChange <= 0.02 + 1e-9)
            for l in plan.layers {
                // Whole cycles over the loop: frame N equals frame 0.
                let travelled = l.used * plan.duration
                #expect(abs(travelled - travelled.rounded()) < 1e-9)
            }
            for format in OutputFormat.allCases {
                let t = plan.timing(for: format)
                let units = format == .gif ? 100.0 : 1000.0
                #expect(t.delays.reduce(0, +) == Int((plan.duration * units).rounded()))
                let shortest = switch format { case .gif: 2; case .webp, .apng: 11; case .svg, .lottie, .dotlottie: 0 }
                #expect(t.delays.min()! >= shortest)
                // Every frame is within half a unit of its exact time.
                var elapsed = 0
                for k in 0..<t.frameCount {
                    #expect(abs(Double(elapsed) - Double(k) * plan.duration * units / Double(t.frameCount)) <= 0.5 + 1e-9)
                    elapsed += t.delays[k]
                }
            }
        }
    }

    @Test func gifDelaysAt30fps() throws {
        let t = try LoopPlanner.plan(config(speeds: [0.5], fps: 30)).timing(for: .gif)
        #expect(Array(t.delays.prefix(6)) == [3, 4, 3, 3, 4, 3])
        #expect(t.delays.reduce(0, +) == 200)
    }

    @Test func gifAbove50fpsRendersFewerFramesOverTheSameLoop() throws {
        let plan = try LoopPlanner.plan(config(speeds: [1], fps: 100))
        #expect(plan.frameCount == 100)
        let t = plan.timing(for: .gif)
        #expect(t.frameCount == 50)
        #expect(t.delays.allSatisfy { $0 == 2 })
        #expect(t.notes.count == 1)
        #expect(plan.timing(for: .webp).frameCount == 90)
        #expect(try LoopPlanner.plan(config(speeds: [1], fps: 60)).timing(for: .webp).frameCount == 60)
    }
}

@Suite struct PlanLimitTests {
    @Test func refusesRendersBeyondThePixelBudget() throws {
        var c = config(speeds: [0.5], fps: 50)
        c.width = 8192
        c.height = 8192
        #expect(throws: PlanError.tooManyPixels(width: 8192, height: 8192, frames: 100, limit: LoopPlanner.maximumPixelFrames)) {
            try LoopPlanner.plan(c)
        }
        c.width = 4096
        c.height = 4096
        #expect(throws: Never.self) { try LoopPlanner.plan(c) }
    }

    @Test func refusesFixedDurationsBeyondTheFrameLimit() {
        #expect(throws: PlanError.tooManyFrames(frames: 144_000, limit: 3000)) {
            try LoopPlanner.plan(config(speeds: [0.5], fps: 240, duration: .seconds(600)))
        }
    }
}
