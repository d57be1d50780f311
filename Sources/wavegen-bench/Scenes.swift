import Foundation
import WaveTestSupport
import WaveKit

/// One scene the benchmark renders: a bundled preset by name, or a preset written for the benchmark.
struct Scene {
    /// Name in the tables.
    var name: String
    /// A bundled preset's name, or nil when `json` holds the preset.
    var bundled: String?
    var json: String?
    /// Shown in the tables only when asked for (the 30-frame twin of the big scene, for memory).
    var memoryOnly = false

    /// The three classic layers at `speed` wavelengths per second.
    static func classicLayers(speed: Double) -> String {
        """
        [
            { "color": "#90CAF9", "amplitude": 0.08, "wavelength": 2, "phase": 0.5, "speed": \(speed) },
            { "color": "#42A5F5", "amplitude": 0.08, "wavelength": 2, "phase": 0, "speed": \(speed) },
            { "color": "#1E88E5", "amplitude": 0.08, "wavelength": 2, "phase": 0.25, "speed": \(speed) }
          ]
        """
    }

    /// 800 × 200, three layers like `classic`, 50 fps, speeds 0.5: 100 frames.
    static let large = Scene(name: "large", bundled: nil, json: """
        { "format": 1, "name": "large", "size": [800, 200], "fps": 50, "background": "#E3F2FD", "level": 0.6,
          "layers": \(classicLayers(speed: 0.5)) }
        """)

    /// 512 × 512 @2x (1024 × 1024 output pixels), three layers, a 6 s loop at 50 fps: 300 frames.
    static let big = bigScene(name: "big", fps: 50)
    /// The same picture and motion over the same 6 s loop at 5 fps: 30 frames.
    static let big30 = { () -> Scene in
        var s = bigScene(name: "big-30", fps: 5)
        s.memoryOnly = true
        return s
    }()

    static func bigScene(name: String, fps: Int) -> Scene {
        Scene(name: name, bundled: nil, json: """
            { "format": 1, "name": "\(name)", "size": [512, 512], "scale": 2, "fps": \(fps), "duration": 6,
              "background": "#E3F2FD", "level": 0.6, "layers": \(classicLayers(speed: 0.5)) }
            """)
    }

    /// Every scene: the bundled presets (sorted), then the large and big cases.
    static func all() -> [Scene] {
        BundledPresets.sources.keys.sorted().map { Scene(name: $0, bundled: $0, json: nil) } + [large, big, big30]
    }
}

/// Writes the benchmark's own presets to a private folder so that they load like any preset file.
final class SceneFiles {
    /// Removed with everything in it when the benchmark ends (`remove()`) or this value goes away.
    private var folder: TemporaryFolder?
    let directory: String

    init() throws {
        let made = try TemporaryFolder("wavegen-bench")
        folder = made
        directory = made.path
    }

    /// What `PresetLoader.load` takes for `scene`: the bundled name or the path of its written file.
    func reference(for scene: Scene) throws -> String {
        if let name = scene.bundled { return name }
        let path = directory + "/" + scene.name + ".json"
        if !FileManager.default.fileExists(atPath: path) {
            try Data((scene.json ?? "{}").utf8).write(to: URL(fileURLWithPath: path))
        }
        return path
    }

    /// A scratch folder inside the private one.
    func scratch(_ name: String) throws -> String {
        let path = directory + "/" + name
        try? FileManager.default.removeItem(atPath: path)
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    func remove() {
        folder = nil
    }
}
