import WaveRender

extension RenderError {
    /// The exit code for this failure.
    public var exitCode: ExitCode {
        switch kind {
        case .missingInput: return .noInput
        case .invalidInput: return .dataError
        case .cannotWrite: return .cannotWrite
        case .failure, .overBudget: return .failure
        }
    }

    public var commandError: CommandError { CommandError(exitCode, lines, located: located) }
}
