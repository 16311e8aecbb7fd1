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
    // Every name is a `StaticString`, so a parameter is plain data: building one where a layout
    // names it, and dropping it, costs nothing on the decoder's and encoder's paths. The names
    // become `String`s only where they are printed or thrown.

    /// How the one-line summary shows a parameter.
    enum Summary: Sendable {
        /// ``output`` then the value, after a space: "handle 0x0012", "Client Rx MTU 517".
        case labeled
        /// The value alone, after a space: a range's start, a list, an opcode's name.
        case bare
        /// The value right after `joiner`: a range's end after "..", an error code after ": ".
        case attached(StaticString)
        /// Not shown (a length that the values it counts show).
        case hidden
    }

    /// The specification's name ("Value Offset").
    private let specificationName: StaticString
    /// The name the stack prints: the specification's unless a shorter one was declared.
    private let printedName: StaticString
    /// How the summary shows the parameter.
    let summary: Summary
    /// For a value kept raw that has a name (an opcode, an error code, Execute Write's flags):
    /// the key of the ``ATTField`` that carries the name beside the number ("error" beside
    /// "error_code").
    private let nameField: StaticString?
    /// For a list: what one entry is called in a decoding error ("Attribute Data").
    private let entry: StaticString
    /// Whether the parameter is an Attribute Handle: an attribute the PDU reads, writes, lists
    /// or notifies (not a range bound, a found or group handle, or the handle of an error).
    let isAttributeHandle: Bool

    /// A parameter named `name` in the specification, printed as `output` (default: `name`).
    /// Every argument is a literal, so a parameter built where a layout names it is a constant.
    init(_ name: StaticString, as output: StaticString? = nil, summary: Summary = .labeled,
         nameKey: StaticString? = nil, entryName: StaticString = "", isAttributeHandle: Bool = false) {
        self.specificationName = name
        self.printedName = output ?? name
        self.summary = summary
        self.nameField = nameKey
        self.entry = entryName
        self.isAttributeHandle = isAttributeHandle
    }

    /// The specification's name ("Value Offset"), as decoding errors name the field.
    var name: String { specificationName.description }

    /// The name the stack prints: ``name`` unless a shorter one was declared ("offset").
    var output: String { printedName.description }

    /// ``output`` in snake_case ("offset", "client_rx_mtu"): the ``ATTField`` name, the JSON key.
    /// The names are ASCII: upper case letters become lower case, spaces underscores.
    var key: String {
        printedName.withUTF8Buffer { octets in
            String(unsafeUninitializedCapacity: octets.count) { key in
                for index in 0..<octets.count {
                    let octet = octets[index]
                    key[index] = octet == 0x20 ? 0x5F : (0x41...0x5A).contains(octet) ? octet | 0x20 : octet
                }
                return octets.count
            }
        }
    }

    /// The key of the ``ATTField`` that carries a raw value's name, if the parameter has one.
    var nameKey: String? { nameField?.description }

    /// For a list: what one entry is called in a decoding error ("Attribute Data").
    var entryName: String { entry.description }
}
