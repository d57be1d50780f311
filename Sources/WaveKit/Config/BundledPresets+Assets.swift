import Foundation

extension BundledPresets {
    /// The bundled images, decoded from base64.
    public static let decodedAssets: [String: [UInt8]] = assets.compactMapValues {
        Data(base64Encoded: $0, options: .ignoreUnknownCharacters).map { [UInt8]($0) }
    }
}
