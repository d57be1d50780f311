/// What a shell offers when completing an option's value or a positional argument. The bash, zsh
/// and fish scripts (`wavegen completions SHELL`) are generated from these, beside the specs.
enum ValueCompletion: Sendable, Equatable {
    /// Free text: nothing to offer.
    case text
    /// Paths; shells that can filter offer folders and files with these extensions (any file when empty).
    case files([String])
    /// Folders.
    case directories
    /// One of these words.
    case words([String])
    /// A bundled preset's name, or a preset file.
    case presets
    /// A bundled preset's name only.
    case bundledPresets
}
