import Foundation
import Testing
@testable import WaveKit

/// The sine traced with cubic Béziers for vector outputs stays within its tolerance, measured by
/// dense sampling, for every bundled preset's layers and a sweep of amplitudes and phases.
@Suite struct SineBeziersTests {
    @Test(arguments: [0.5, 2, 10.24, 18, 40, 120])
    func deviationIsWithinTolerance(_ amplitude: Double) {
        for phase in stride(from: 0.0, to: 1, by: 0.13) {
            for wavelength in [46.4, 128, 300] {
                let sine = SineBeziers(amplitude: amplitude, wavelength: wavelength, phase: phase, origin: 4, base: 60, tolerance: 0.01)
                let segments = sine.segments(from: -wavelength, to: 2 * wavelength)
                #expect(sine.deviation(of: segments, samples: 512) <= 0.01, "A \(amplitude) λ \(wavelength) phase \(phase)")
                #expect(segments.first!.start.x <= -wavelength && segments.last!.end.x >= 2 * wavelength)
            }
        }
    }

    /// The straight-line tracing stays within its tolerance between and at its vertices (sampled
    /// every 1/128 px), starts and ends on the sine at the bounds asked for, puts the vertices
    /// between on the grid, and gives the same vertices every time.
    @Test(arguments: [0, 0.5, 2, 10.24, 18, 40, 120])
    func linesStayWithinTolerance(_ amplitude: Double) {
        for phase in stride(from: 0.0, to: 1, by: 0.17) {
            for wavelength in [46.4, 128, 300] {
                let sine = SineBeziers(amplitude: amplitude, wavelength: wavelength, phase: phase, origin: 4, base: 60, tolerance: 0.01)
                let lower = -wavelength - 0.37, upper = 2 * wavelength
                let vertices = sine.lines(from: lower, to: upper, tolerance: 0.014)
                var worst = 0.0
                for (p, q) in zip(vertices, vertices.dropFirst()) {
                    #expect(q.x > p.x)
                    var x = p.x
                    while x < q.x {
                        worst = max(worst, abs(p.y + (q.y - p.y) * (x - p.x) / (q.x - p.x) - sine.height(atX: x)))
                        x += 1.0 / 128
                    }
                }
                #expect(worst <= 0.014 + 1e-9, "A \(amplitude) λ \(wavelength) phase \(phase): \(worst)")
                #expect(vertices.first! == PathPoint(lower, sine.height(atX: lower)))
                #expect(vertices.last! == PathPoint(upper, sine.height(atX: upper)))
                for v in vertices.dropFirst().dropLast() {
                    let k = (v.x - lower) / 0.1
                    #expect(abs(k - k.rounded()) < 1e-6)
                }
                #expect(vertices == sine.lines(from: lower, to: upper, tolerance: 0.014))
                if amplitude == 0 { #expect(vertices.count == 2) }

                // Repeated per wavelength: it covers the range, stays within the tolerance, and
                // moved by one wavelength its vertices fall on its vertices.
                let periodic = sine.periodicLines(from: lower, to: upper, tolerance: 0.014)
                #expect(periodic.first!.x <= lower && periodic.last!.x >= upper)
                #expect(sine.deviation(ofLines: periodic, samples: 256) <= 0.014 + 1e-9)
                let xs = Set(periodic.map { ($0.x * 1e6).rounded() })
                let inner = periodic.filter { $0.x + wavelength <= periodic.last!.x }
                #expect(inner.allSatisfy { xs.contains((($0.x + wavelength) * 1e6).rounded()) })
            }
        }
    }

    @Test func bundledPresetsAreTracedWithin2Hundredths() throws {
        let loader = PresetLoader(imageDecoder: { _ throws(ImageProblem) in testRiderImage() })
        for name in BundledPresets.sources.keys.sorted() {
            let config = try loader.load(name)
            for layer in config.layers {
                let sine = SineBeziers(amplitude: layer.amplitude, wavelength: layer.wavelength, phase: layer.phase,
                                       origin: config.box.x, base: config.box.midY, tolerance: 0.01)
                let segments = sine.segments(from: config.box.x - layer.wavelength, to: config.box.maxX + layer.wavelength)
                #expect(sine.deviation(of: segments, samples: 512) <= 0.02, "\(name)")
            }
        }
    }

    @Test func continuousLevelMatchesFrames() {
        let levels: [LevelAnimation] = [.still(0.5), .ramp(from: 0.2, to: 0.8, ease: .easeInOut, pingpong: false),
                                        .ramp(from: 0.4, to: 0.6, ease: .linear, pingpong: true), .tide(base: 0.45, tide: 0.2)]
        for level in levels {
            for n in [1, 2, 7, 100] {
                for k in 0..<n {
                    #expect(abs(level.level(atLoopFraction: Double(k) / Double(n), frames: n) - level.level(frame: k, of: n)) < 1e-12)
                }
            }
        }
    }
}
