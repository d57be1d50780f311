// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "wavegen",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "wavegen", targets: ["wavegen"]),
        .library(name: "WaveKit", targets: ["WaveKit"]),
    ],
    targets: [
        // C libraries, each behind a system-library target and one Swift wrapper.
        .systemLibrary(name: "CGIF", pkgConfig: nil, providers: [.apt(["libgif-dev"])]),
        .systemLibrary(name: "CWebP", pkgConfig: "libwebpmux libwebpdemux", providers: [.apt(["libwebp-dev"])]),
        .systemLibrary(name: "CPNG", pkgConfig: "libpng", providers: [.apt(["libpng-dev"])]),
        .systemLibrary(name: "CFreeType", pkgConfig: "freetype2", providers: [.apt(["libfreetype-dev"])]),

        // The pipeline: preset → WaveConfig → LoopPlan → palette frames (pure Swift).
        .target(name: "WaveKit"),
        // Encoders and image I/O, the only importers of their C modules.
        .target(name: "WaveGIF", dependencies: ["CGIF"]),
        .target(name: "WaveWebP", dependencies: ["CWebP"]),
        .target(name: "WavePNG", dependencies: ["CPNG"]),
        .target(name: "WaveText", dependencies: ["CFreeType"]),
        // The command line: parsing, subcommands and wiring, kept testable in a library.
        .target(name: "WavegenCLI", dependencies: ["WaveKit", "WaveGIF", "WaveWebP", "WavePNG", "WaveText"]),
        .executableTarget(name: "wavegen", dependencies: ["WavegenCLI"]),
        // Benchmark (release builds): stage times, the giflib encoder floor, img2webp, peak memory.
        .executableTarget(name: "wavegen-bench", dependencies: ["WaveKit", "WaveGIF", "WaveWebP", "WavegenCLI", "CGIF"]),

        // Fuzzing (scripts/fuzz): the preset, manifest and PNG loaders under libFuzzer; in an ordinary
        // build it replays the files named on its command line through the same code.
        .executableTarget(name: "wavegen-fuzz", dependencies: ["WaveKit", "WavegenCLI", "WavePNG"]),

        // Helpers the test targets share (frame comparisons for readable failures).
        .target(name: "WaveTestSupport", path: "Tests/WaveTestSupport"),
        .testTarget(name: "WaveKitTests", dependencies: ["WaveKit"]),
        .testTarget(name: "WaveGIFTests", dependencies: ["WaveGIF", "WaveTestSupport"]),
        .testTarget(name: "WaveWebPTests", dependencies: ["WaveWebP", "WaveTestSupport"]),
        .testTarget(name: "WavegenCLITests", dependencies: ["WavegenCLI", "WaveKit", "WaveGIF", "WaveWebP", "WavePNG", "WaveTestSupport"],
                    exclude: ["Fixtures"]),
    ]
)
