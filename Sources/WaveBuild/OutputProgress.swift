/// Follows a set of outputs as they are made: a progress display, or nothing.
public protocol OutputProgress: AnyObject, Sendable {
    /// Starts over for `total` outputs.
    func begin(total: Int)
    /// An output (by its path) started.
    func started(_ path: String)
    /// An output finished.
    func finished(_ path: String)
    /// Takes the display away so that a message starts at the left margin.
    func clear()
    /// Shows the display again after a message.
    func redraw()
    /// Takes the display away for good.
    func finish()
}
