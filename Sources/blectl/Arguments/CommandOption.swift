/// An option of a blectl command, declared once: the command's parser accepts exactly the
/// options its ``CommandSyntax`` declares, and `blectl help` shows them from the same
/// declaration, so the help cannot leave one out.
struct CommandOption: Sendable, Hashable {
    /// The option as typed: "--json".
    let name: String
    /// The word that stands for its value in the help ("FILE", "S"), or nil for a switch that
    /// takes no value.
    let value: String?
    /// What the value must be, for messages: `--duration takes seconds (0 < S <= 86400)`.
    let takes: String?
    /// Whether the option may be given more than once, every value kept (`[--service UUID]...`).
    let isRepeatable: Bool
    /// Whether the command needs it; the help shows it without brackets.
    let isRequired: Bool

    /// A switch: `--json`.
    static func flag(_ name: String) -> CommandOption {
        CommandOption(name: name, value: nil, takes: nil, isRepeatable: false, isRequired: false)
    }

    /// An option with a value: `--duration S`, where the value must be what `takes` says.
    static func value(_ name: String, _ value: String, takes: String, repeatable: Bool = false, required: Bool = false) -> CommandOption {
        CommandOption(name: name, value: value, takes: takes, isRepeatable: repeatable, isRequired: required)
    }

    /// The option with its value's word: "--duration S".
    var form: String { value.map { "\(name) \($0)" } ?? name }

    /// The option as a synopsis shows it: "[--duration S]", "[--service UUID]...", "--db FILE.json".
    var synopsis: String {
        (isRequired ? form : "[\(form)]") + (isRepeatable ? "..." : "")
    }

    /// The sentence for a missing or wrong value: "--duration takes seconds (0 < S <= 86400)".
    var expectation: String { "\(name) takes \(takes ?? value ?? "no value")" }
}
