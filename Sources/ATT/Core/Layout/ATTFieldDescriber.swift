import BLECore

/// The ``ATTFieldCoder`` that prints a PDU's parameters on one line, the summary after the PDU
/// name in ``ATTPDU/description``: "handle 0x0012 offset 18 value 0102",
/// "0x0001..0xffff type 2803 (Characteristic)", "0x0002: 020300002a, 0x0004: 020500012a".
///
/// Each parameter shows as its ``ATTParameter/summary`` says: labeled by its
/// ``ATTParameter/output`` name, bare, attached to the one before ("..", ": "), or hidden.
/// Handles print as "0x0012", integers in decimal, octets in hexadecimal ("(empty)" for none),
/// UUIDs with their names. A list prints its entries joined by ", "; inside an entry nothing is
/// labeled and a value follows what precedes it after ": ".
struct ATTFieldDescriber: ATTFieldCoder {
    /// The line so far.
    private(set) var text = ""
    /// Whether this describer prints one entry of a list.
    let isEntry: Bool

    /// A describer with nothing printed yet; `isEntry` for one entry of a list.
    init(isEntry: Bool = false) { self.isEntry = isEntry }

    var offset: Int { 0 }

    /// Appends `value` for `parameter` as its summary style says; `isValue` for attribute values.
    private mutating func append(_ parameter: ATTParameter, _ value: String, isValue: Bool = false) {
        var style = parameter.summary
        if isEntry, case .labeled = style { style = isValue && !text.isEmpty ? .attached(": ") : .bare }
        switch style {
        case .labeled:
            if !text.isEmpty { text += " " }
            text += parameter.output
            text += " "
            text += value
        case .bare:
            if !text.isEmpty { text += " " }
            text += value
        case .attached(let joiner):
            text += joiner.description
            text += value
        case .hidden:
            break
        }
    }

    mutating func handle(_ value: inout UInt16, _ parameter: ATTParameter) { append(parameter, Hex.hex16(value)) }
    mutating func integer(_ value: inout UInt8, _ parameter: ATTParameter) { append(parameter, String(value)) }
    mutating func integer(_ value: inout UInt16, _ parameter: ATTParameter) { append(parameter, String(value)) }
    mutating func integer(_ value: inout UInt32, _ parameter: ATTParameter) { append(parameter, String(value)) }

    mutating func integerOctets(_ value: inout UInt64, _ parameter: ATTParameter) {
        append(parameter, Hex.encode(ATTFieldCollector.littleEndianOctets(value)))
    }

    mutating func code<T: ATTCodedValue>(_ value: inout T, _ parameter: ATTParameter) {
        append(parameter, value.summaryText)
    }

    mutating func remaining(_ value: inout [UInt8], _ parameter: ATTParameter, reserving reserved: Int) {
        append(parameter, ATTText.octets(value), isValue: true)
    }

    mutating func uuid(_ value: inout BluetoothUUID, _ parameter: ATTParameter) {
        append(parameter, value.descriptionWithName)
    }

    mutating func uuid16(_ value: inout UInt16, _ parameter: ATTParameter) {
        append(parameter, BluetoothUUID(value).descriptionWithName)
    }

    mutating func handles(_ value: inout [UInt16], _ parameter: ATTParameter, element: ATTParameter, minimumCount: Int) {
        append(parameter, value.map(Hex.hex16).joined(separator: ", "))
    }

    mutating func list<E: ATTLayout>(_ entries: inout [E], _ parameter: ATTParameter, entrySize: Int, minimumCount: Int) {
        append(parameter, Self.entries(entries))
    }

    mutating func sequence<E: ATTLayout>(_ entries: inout [E], _ parameter: ATTParameter, minimumLength: Int) {
        append(parameter, Self.entries(entries))
    }

    /// The value, and when it is shorter than its Value Length, " (truncated, Value Length N)".
    mutating func lengthValue(_ length: inout UInt16, _ value: inout [UInt8], _ lengthParameter: ATTParameter,
                              _ valueParameter: ATTParameter, truncatable: Bool) {
        var text = ATTText.octets(value)
        if value.count < Int(length) { text += " (truncated, \(lengthParameter.name) \(length))" }
        append(valueParameter, text, isValue: true)
    }

    /// The group's fields print among the PDU's own.
    mutating func group<G: ATTLayout>(_ value: inout G, _ parameter: ATTParameter, size: Int) { value.walk(&self) }

    mutating func check(_ condition: Bool, _ parameter: ATTParameter, offset: Int, _ reason: @autoclosure () -> String) {}

    /// Each entry described on its own, joined by ", ".
    static func entries<E: ATTLayout>(_ entries: [E]) -> String {
        var text = ""
        for var entry in entries {
            var describer = ATTFieldDescriber(isEntry: true)
            entry.walk(&describer)
            if !text.isEmpty { text += ", " }
            text += describer.text
        }
        return text
    }

    /// The summary of `value`'s fields.
    static func summary<L: ATTLayout>(_ value: L) -> String {
        var describer = ATTFieldDescriber()
        var copy = value
        copy.walk(&describer)
        return describer.text
    }
}
