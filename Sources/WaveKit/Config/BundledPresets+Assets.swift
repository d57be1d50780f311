import WavePlatform

extension BundledPresets {
    /// The bundled images, decoded from base64.
    public static let decodedAssets: [String: [UInt8]] = assets.compactMapValues {
        Base64.decodeIgnoringOtherCharacters($0)
    }
}
