// swift-tools-version:6.0
// An app target that has its loaders rendered at build time by wavegen's build-tool plugin and
// reads them from Bundle.module. Build and run from this folder: `swift run LoaderApp`.
// See docs/swiftpm-plugin.md.
import PackageDescription

let package = Package(
    name: "LoaderApp",
    platforms: [.macOS(.v13)],
    dependencies: [
        // In an app: .package(url: "https://…/wavegen.git", from: "0.1.0")
        .package(name: "wavegen", path: "../.."),
    ],
    targets: [
        .executableTarget(
            name: "LoaderApp",
            plugins: [.plugin(name: "WavegenPlugin", package: "wavegen")]
        ),
    ]
)
