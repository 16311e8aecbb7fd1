/// A weak reference that can cross tasks: the engine harnesses' leak check holds the objects an
/// input made this way, then waits for them to be freed.
public final class Weak<Object: AnyObject & Sendable>: @unchecked Sendable {
    /// The object, or nil once it has been freed. Written once, in init; a weak reference to a
    /// Sendable object is safe to read from any task.
    public private(set) weak var value: Object?

    /// A weak reference to `value`.
    public init(_ value: Object) { self.value = value }
}
