/// The place of a value inside a JSON document: member names and array indices from the top.
/// Written as `services[2].characteristics[0].uuid`; the top-level value has the empty path.
public struct JSONPath: Hashable, Sendable, CustomStringConvertible, ExpressibleByArrayLiteral {
    /// One step down: into an object's member, or an array's element (from 0).
    public enum Component: Hashable, Sendable {
        case member(String)
        case index(Int)
    }

    /// The steps from the top-level value.
    public var components: [Component]

    /// A path of `components`, from the top.
    public init(_ components: [Component]) { self.components = components }

    /// A path written as a list of components.
    public init(arrayLiteral elements: Component...) { self.components = elements }

    /// `services[2].characteristics[0].uuid`; the empty string for the top-level value.
    public var description: String {
        var out = ""
        for component in components {
            switch component {
            case .member(let name): out += out.isEmpty ? name : "." + name
            case .index(let i): out += "[\(i)]"
            }
        }
        return out
    }
}
