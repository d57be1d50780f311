extension PresetLoader {
    /// The bytes of the rider image `reference` names, as stored (a file beside the preset that
    /// names it, an image bundled with the presets, or an embedded one), or nil when it has no
    /// rider image. The preset must load.
    public func riderImageBytes(_ reference: String) throws(WaveError) -> [UInt8]? {
        let resolved = try resolve(reference)
        guard case let .string(named)? = resolved.root.node(at: [.key("rider"), .key("image")])?.value, !named.isEmpty else { return nil }
        if DataURI.isDataURI(named) {
            guard case let .success(bytes) = DataURI.decode(named, typePrefix: "image/png", kind: "image") else { return nil }
            return bytes
        }
        guard let folder = PresetLoader.fileSource(of: "rider.image", in: resolved, overrides: []).folder else { return bundledAssets[named] }
        return try BoundedFile.read(PresetLoader.path(named, in: folder), limit: PresetLoader.maximumImageFileSize, kind: "image")
    }
}
