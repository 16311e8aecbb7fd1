/// One parameter of the Attribute Protocol's PDUs (Core v5.4, Vol 3, Part F, 3.4), declared
/// once: what the specification calls it, the one name the stack prints it under, and how the
/// one-line summary shows it. Every constant is in ATTParameters.swift; a PDU's layout hands
/// its fields to a coder with these constants, and every output reads its names from them.
///
/// | used by | reads | "Value Offset" (3.4.4.5) gives |
/// |---|---|---|
/// | decoding errors | ``name``, the specification's | `Value Offset at offset 3 needs 2 octets, 0 available` |
/// | ``ATTField`` names (JSON) | ``key``: ``output``, snake_case | `offset` |
/// | the summary (``ATTPDU/description``) | ``output`` | `handle 0x0003 offset 22` |
///
/// ``output`` is the specification's name unless the declaration gives a shorter one: the
/// qualifiers the PDU name already implies are dropped ("Attribute Handle" is `handle`,
/// "Value Offset" is `offset`, "Set Of Handles" is `handles`).
struct ATTParameter: Sendable {
    /// How the one-line summary shows a parameter.
    enum Summary: Sendable {
        /// ``output`` then the value, after a space: "handle 0x0012", "Client Rx MTU 517".
        case labeled
        /// The value alone, after a space: a range's start, a list, an opcode's name.
        case bare
        /// The value right after `joiner`: a range's end after "..", an error code after ": ".
        case attached(String)
        /// Not shown (a length that the values it counts show).
        case hidden
    }

    /// The specification's name ("Value Offset"), as decoding errors name the field.
    let name: String
    /// The shorter name declared for printing, if any.
    private let shortName: String?
    /// How the summary shows the parameter.
    let summary: Summary
    /// For a value kept raw that has a name (an opcode, an error code, Execute Write's flags):
    /// the ``ATTField`` that carries the name beside the number ("error" beside "error_code").
    let nameKey: String?
    /// For a list: what one entry is called in a decoding error ("Attribute Data").
    let entryName: String
    /// Whether the parameter is an Attribute Handle: an attribute the PDU reads, writes, lists
    /// or notifies (not a range bound, a found or group handle, or the handle of an error).
    let isAttributeHandle: Bool

    /// A parameter named `name` in the specification, printed as `output` (default: `name`).
    /// Every argument is a literal, so a parameter built where a layout names it is a constant.
    init(_ name: String, as output: String? = nil, summary: Summary = .labeled, nameKey: String? = nil,
         entryName: String = "", isAttributeHandle: Bool = false) {
        self.name = name
        self.shortName = output
        self.summary = summary
        self.nameKey = nameKey
        self.entryName = entryName
        self.isAttributeHandle = isAttributeHandle
    }

    /// The name the stack prints: ``name`` unless a shorter one was declared ("offset").
    var output: String { shortName ?? name }

    /// ``output`` in snake_case ("offset", "client_rx_mtu"): the ``ATTField`` name, the JSON key.
    var key: String { output.lowercased().replacing(" ", with: "_") }
}
