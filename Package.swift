// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "wavegen",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "wavegen", targets: ["wavegen"]),
        .library(name: "WaveKit", targets: ["WaveKit"]),
        .library(name: "WaveRender", targets: ["WaveRender"]),
        .library(name: "WaveBuild", targets: ["WaveBuild"]),
        .library(name: "WavePreview", targets: ["WavePreview"]),
        // Renders a target's presets (*.wavegen.json) and manifest (wavegen.json) into its resources
        // at build time: docs/swiftpm-plugin.md.
        .plugin(name: "WavegenPlugin", targets: ["WavegenPlugin"]),
    ],
    targets: [
        // C libraries, each behind a system-library target and one Swift wrapper.
        // giflib ships no pkg-config file: on macOS pass Homebrew's folders (README, "Building on macOS").
        .systemLibrary(name: "CGIF", pkgConfig: nil, providers: [.apt(["libgif-dev"]), .brew(["giflib"])]),
        .systemLibrary(name: "CWebP", pkgConfig: "libwebpmux libwebpdemux", providers: [.apt(["libwebp-dev"]), .brew(["webp"])]),
        .systemLibrary(name: "CPNG", pkgConfig: "libpng", providers: [.apt(["libpng-dev"]), .brew(["libpng"])]),
        .systemLibrary(name: "CFreeType", pkgConfig: "freetype2", providers: [.apt(["libfreetype-dev"]), .brew(["freetype"])]),
        .systemLibrary(name: "CDeflate", pkgConfig: "libdeflate", providers: [.apt(["libdeflate-dev"]), .brew(["libdeflate"])]),
        .systemLibrary(name: "CZopfli", pkgConfig: nil, providers: [.apt(["libzopfli-dev"]), .brew(["zopfli"])]),
        .systemLibrary(name: "CFontconfig", pkgConfig: "fontconfig", providers: [.apt(["libfontconfig-dev"]), .brew(["fontconfig"])]),
        .systemLibrary(name: "CZip", pkgConfig: "libzip", providers: [.apt(["libzip-dev"]), .brew(["libzip"])]),

        // Pure Swift: the operating system's sockets, signals and file stamps, with a Linux and a
        // Darwin branch side by side; the only target that imports Glibc, Musl or Darwin.
        .target(name: "WavePlatform"),
        // Pure Swift: preset JSON → WaveConfig → LoopPlan → the wave model → palette frames.
        .target(name: "WaveKit", dependencies: ["WavePlatform"]),
        // Encoders, image I/O and text: each the only importer of its C module, none knows about waves.
        .target(name: "WaveGIF", dependencies: ["CGIF", "WavePlatform"]),
        .target(name: "WaveWebP", dependencies: ["CWebP"]),
        .target(name: "WaveAPNG", dependencies: ["WavePlatform", "CDeflate", "CZopfli"]),
        .target(name: "WavePNG", dependencies: ["CPNG"]),
        .target(name: "WaveText", dependencies: ["CFreeType", "CFontconfig"]),
        // ZIP archives (dotLottie) written with libzip: fixed entry order, time stamps and attributes.
        .target(name: "WaveZip", dependencies: ["CZip"]),
        // The pipeline as a library: load → plan → prepare → writers (one per output format).
        .target(name: "WaveRender", dependencies: ["WavePlatform", "WaveKit", "WaveGIF", "WaveWebP", "WaveAPNG", "WavePNG", "WaveText", "WaveZip"]),
        // Manifests end to end as a library: OutputSet (the one loop of ordered work build, preview
        // and serve share), ManifestBuild (up-to-date decisions against the lock, atomic writes,
        // protected inputs, orphans and pruning; typed results per output), validation.
        .target(name: "WaveBuild", dependencies: ["WavePlatform", "WaveKit", "WaveRender"]),
        // The live preview as a library: HTTP server, server-sent events, file watching, the live
        // session and both pages (the written preview page and the live one).
        .target(name: "WavePreview", dependencies: ["WavePlatform", "WaveKit", "WaveRender", "WaveBuild"]),
        // The command line: arguments, subcommands, printing and exit codes.
        .target(name: "WavegenCLI", dependencies: ["WavePlatform", "WaveKit", "WaveRender", "WaveBuild", "WavePreview"]),
        .executableTarget(name: "wavegen", dependencies: ["WavegenCLI"]),
        // The build-tool plugin: runs the wavegen executable above for a target's presets and manifest.
        .plugin(name: "WavegenPlugin", capability: .buildTool(), dependencies: ["wavegen"]),
        // The slow segment reference the rate–distortion benchmark (scripts/bench/compare-rd) judges GIFs by.
        .target(name: "WaveReference", dependencies: ["WaveKit"]),
        // Benchmark (release builds): stage times, the plain-giflib floor, img2webp, peak memory;
        // `wavegen-bench reference` writes the segment reference's frames.
        .executableTarget(name: "wavegen-bench", dependencies: ["WavePlatform", "WaveKit", "WaveRender", "WaveGIF", "WaveWebP", "WaveAPNG", "WavePNG", "WaveReference", "WaveTestSupport"]),

        // Fuzzing (scripts/dev/fuzz): the preset, manifest and PNG loaders and the GIF encoder's promises
        // (WaveTestSupport's GIFEncoderCheck) under libFuzzer; in an ordinary build it replays the
        // files named on its command line through the same code.
        .executableTarget(name: "wavegen-fuzz", dependencies: ["WaveKit", "WaveRender", "WavePNG", "WaveTestSupport"]),

        // Helpers the test targets (and the fuzzer) share: frame comparisons for readable failures,
        // seeded randomness, the GIF encoder's property check.
        .target(name: "WaveTestSupport", dependencies: ["WaveGIF", "WavePlatform"], path: "Tests/WaveTestSupport"),
        .testTarget(name: "WaveKitTests", dependencies: ["WaveKit", "WaveReference", "WaveTestSupport"]),
        .testTarget(name: "WaveGIFTests", dependencies: ["WaveGIF", "WaveTestSupport"]),
        .testTarget(name: "WaveWebPTests", dependencies: ["WaveWebP", "WaveTestSupport"]),
        .testTarget(name: "WavePNGTests", dependencies: ["WavePNG"], exclude: ["Fixtures"]),
        .testTarget(name: "WavePlatformTests", dependencies: ["WavePlatform", "WaveTestSupport"]),
        .testTarget(name: "WaveAPNGTests", dependencies: ["WaveAPNG", "WavePNG", "WaveTestSupport"]),
        .testTarget(name: "WaveTextTests", dependencies: ["WaveText"]),
        .testTarget(name: "WaveZipTests", dependencies: ["WaveZip"]),
        .testTarget(name: "WaveRenderTests", dependencies: ["WaveRender", "WaveKit", "WaveGIF", "WaveWebP", "WaveAPNG", "WavePNG", "WaveTestSupport"]),
        .testTarget(name: "WaveBuildTests", dependencies: ["WaveBuild", "WaveKit", "WaveRender", "WaveGIF", "WaveTestSupport"]),
        .testTarget(name: "WavePreviewTests", dependencies: ["WavePreview", "WaveBuild", "WavePlatform", "WaveKit", "WaveTestSupport"]),
        .testTarget(name: "WavegenCLITests", dependencies: ["WavegenCLI", "WaveBuild", "WavePreview", "WavePlatform", "WaveKit", "WaveRender", "WaveText", "WaveGIF", "WaveWebP", "WaveAPNG", "WavePNG", "WaveTestSupport"],
                    exclude: ["Fixtures"]),
    ]
)
