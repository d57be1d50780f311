// Reads the loaders wavegen's plugin rendered into this target's resources at build time.
import Foundation

/// The files the plugin writes for this target's presets and manifest. SwiftPM puts generated
/// resources at the top of the bundle by file name: the manifest's `progress/classic-000.gif` is
/// `classic-000.gif` there.
let expected = [
    "spinner.gif", "spinner.svg", "spinner.json",
    "brand.gif", "brand@2x.gif", "brand.webp", "brand@2x.webp",
    "sail.gif", "sail.svg", "sail.json",
    "classic-000.gif", "classic-050.gif", "classic-100.gif",
    "card-light.webp", "card-dark.webp",
]

guard let folder = Bundle.module.resourceURL else {
    FileHandle.standardError.write(Data("LoaderApp: Bundle.module has no resource folder\n".utf8))
    exit(1)
}
var failures = 0
for name in expected {
    let file = folder.appending(path: name)
    guard let bytes = try? Data(contentsOf: file) else {
        FileHandle.standardError.write(Data("LoaderApp: \(name) is not in Bundle.module (\(folder.path))\n".utf8))
        failures += 1
        continue
    }
    let header = String(decoding: bytes.prefix(6), as: UTF8.self)
    let wellFormed = switch file.pathExtension {
    case "gif": header == "GIF89a"
    case "webp": bytes.count > 12 && bytes.prefix(4) == Data("RIFF".utf8) && bytes[8..<12] == Data("WEBP".utf8)
    case "svg": header.hasPrefix("<svg") || header.hasPrefix("<?xml")
    default: (try? JSONSerialization.jsonObject(with: bytes)) is [String: Any]
    }
    print("\(name): \(bytes.count) bytes\(wellFormed ? "" : " (NOT a well-formed \(file.pathExtension) file)")")
    if !wellFormed { failures += 1 }
}
if failures > 0 {
    FileHandle.standardError.write(Data("LoaderApp: \(failures) of \(expected.count) loaders missing or malformed\n".utf8))
    exit(1)
}
print("LoaderApp: \(expected.count) loaders found in Bundle.module")
