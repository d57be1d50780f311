/// How much work runs at once: the threads drawing one output's frames (`render -j`) and the
/// outputs rendered at once (`build`, `preview` and `serve -j`). A larger request is clamped, as
/// each thread or output holds its own buffers: 100 000 threads only exhaust memory.
public enum Parallelism {
    /// The most threads, or outputs at once, any command uses.
    public static let maximum = 64

    /// `requested` brought into 1…`maximum`.
    public static func clamped(_ requested: Int) -> Int { min(maximum, max(1, requested)) }
}
