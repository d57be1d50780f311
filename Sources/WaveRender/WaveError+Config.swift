import WaveKit

extension WaveError {
    /// A problem with a loaded preset as a whole (its loop, its font), reported against its file.
    public init(_ config: WaveConfig, _ message: String, keyPath: String = "", kind: DocumentProblem.Kind = .invalid) {
        self.init(DocumentProblem(file: config.source, keyPath: keyPath, message: message, kind: kind))
    }
}
