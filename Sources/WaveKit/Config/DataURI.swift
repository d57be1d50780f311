import WavePlatform

/// A file's bytes written into a preset as a data URI (`data:font/ttf;base64,AAEAAA…`), as a packed
/// preset holds its rider image and label fonts.
public enum DataURI {
    /// The largest embedded image or font accepted, in bytes (after decoding).
    public static let maximumEmbeddedSize = 4 << 20

    /// Whether a file-naming value (`rider.image`, an entry of `label.font`) holds the file itself.
    public static func isDataURI(_ value: String) -> Bool { value.hasPrefix("data:") }

    /// `bytes` as `data:MEDIATYPE;base64,…`.
    public static func encode(_ bytes: [UInt8], mediaType: String) -> String {
        "data:\(mediaType);base64," + Base64.encode(bytes)
    }

    /// The bytes of a `data:TYPE;base64,…` value whose media type starts with `typePrefix`
    /// ("image/png", "font/"), at most `maximumEmbeddedSize` of them; else why not, in a sentence
    /// that names `kind` ("image", "font").
    public static func decode(_ value: String, typePrefix: String, kind: String) -> Result<[UInt8], DataURIProblem> {
        guard let comma = value.firstIndex(of: ",") else {
            return .failure(DataURIProblem("an embedded \(kind) is written data:\(typePrefix)…;base64,… (no comma found)"))
        }
        let header = value[value.index(value.startIndex, offsetBy: 5)..<comma]
        guard header.hasSuffix(";base64"), header.hasPrefix(typePrefix) else {
            return .failure(DataURIProblem("an embedded \(kind) is written data:\(typePrefix)…;base64,…, got data:\(header.prefix(40)),…"))
        }
        let payload = value.utf8[value.utf8.index(after: comma.samePosition(in: value.utf8)!)...]
        let decodedSize = payload.count / 4 * 3
        guard decodedSize <= maximumEmbeddedSize + 2 else {
            return .failure(DataURIProblem("the embedded \(kind) is about \(decodedSize) bytes; at most \(maximumEmbeddedSize) are accepted"))
        }
        guard let data = Base64.decode(payload) else {
            return .failure(DataURIProblem("the embedded \(kind) is not valid base64"))
        }
        guard data.count <= maximumEmbeddedSize else {
            return .failure(DataURIProblem("the embedded \(kind) is \(data.count) bytes; at most \(maximumEmbeddedSize) are accepted"))
        }
        return .success([UInt8](data))
    }

    /// A short stand-in for a data URI in messages: "data:font/ttf;base64,… (12345 characters)".
    public static func abbreviated(_ value: String) -> String {
        guard isDataURI(value), let comma = value.firstIndex(of: ",") else { return value }
        return String(value[...comma]) + "… (\(value.count) characters)"
    }
}

/// Why an embedded file could not be read.
public struct DataURIProblem: Error, Equatable, Sendable {
    public var message: String
    public init(_ message: String) { self.message = message }
}
