import BLECore

/// The ``ATTFieldCoder`` that lists a PDU's parameters as ``ATTField``s, for structured output
/// (the JSON of `blectl decode`): each under its ``ATTParameter/key``, handles and integers as
/// integers, octets as octets, UUIDs as UUIDs, lists as lists of their entries' fields. A value
/// kept raw that has a name adds the name under ``ATTParameter/nameKey``; a group's fields sit
/// among the PDU's own; hidden parameters are listed too.
struct ATTFieldCollector: ATTFieldCoder {
    /// The fields so far, in wire order.
    private(set) var fields: [ATTField] = []

    var offset: Int { 0 }

    private mutating func add(_ parameter: ATTParameter, _ value: ATTFieldValue) {
        fields.append(ATTField(parameter.key, value))
    }

    mutating func handle(_ value: inout UInt16, _ parameter: ATTParameter) { add(parameter, .integer(Int(value))) }
    mutating func integer(_ value: inout UInt8, _ parameter: ATTParameter) { add(parameter, .integer(Int(value))) }
    mutating func integer(_ value: inout UInt16, _ parameter: ATTParameter) { add(parameter, .integer(Int(value))) }
    mutating func integer(_ value: inout UInt32, _ parameter: ATTParameter) { add(parameter, .integer(Int(value))) }

    mutating func integerOctets(_ value: inout UInt64, _ parameter: ATTParameter) {
        add(parameter, .octets(Self.littleEndianOctets(value)))
    }

    mutating func code<T: ATTCodedValue>(_ value: inout T, _ parameter: ATTParameter) {
        add(parameter, .integer(Int(value.rawValue)))
        if let nameKey = parameter.nameKey { fields.append(ATTField(nameKey, .text(value.nameText))) }
    }

    mutating func remaining(_ value: inout [UInt8], _ parameter: ATTParameter, reserving reserved: Int) {
        add(parameter, .octets(value))
    }

    mutating func uuid(_ value: inout BluetoothUUID, _ parameter: ATTParameter) { add(parameter, .uuid(value)) }
    mutating func uuid16(_ value: inout UInt16, _ parameter: ATTParameter) { add(parameter, .uuid(BluetoothUUID(value))) }

    mutating func handles(_ value: inout [UInt16], _ parameter: ATTParameter, element: ATTParameter, minimumCount: Int) {
        add(parameter, .list(value.map { [ATTField(element.key, .integer(Int($0)))] }))
    }

    mutating func list<E: ATTLayout>(_ entries: inout [E], _ parameter: ATTParameter, entrySize: Int, minimumCount: Int) {
        add(parameter, .list(Self.fieldLists(entries)))
    }

    mutating func sequence<E: ATTLayout>(_ entries: inout [E], _ parameter: ATTParameter, minimumLength: Int) {
        add(parameter, .list(Self.fieldLists(entries)))
    }

    /// The fields of each entry, in order.
    static func fieldLists<E: ATTLayout>(_ entries: [E]) -> [[ATTField]] {
        var lists: [[ATTField]] = []
        lists.reserveCapacity(entries.count)
        for entry in entries { lists.append(fields(entry)) }
        return lists
    }

    mutating func lengthValue(_ length: inout UInt16, _ value: inout [UInt8], _ lengthParameter: ATTParameter,
                              _ valueParameter: ATTParameter, truncatable: Bool) {
        add(lengthParameter, .integer(Int(length)))
        add(valueParameter, .octets(value))
    }

    mutating func group<G: ATTLayout>(_ value: inout G, _ parameter: ATTParameter, size: Int) { value.walk(&self) }

    mutating func check(_ condition: Bool, _ parameter: ATTParameter, offset: Int, _ reason: @autoclosure () -> String) {}

    /// The fields of `value`.
    static func fields<L: ATTLayout>(_ value: L) -> [ATTField] {
        var collector = ATTFieldCollector()
        var copy = value
        copy.walk(&collector)
        return collector.fields
    }

    /// The eight octets of `value`, least significant first: as transmitted.
    static func littleEndianOctets(_ value: UInt64) -> [UInt8] {
        (0..<8).map { UInt8(truncatingIfNeeded: value >> (8 * UInt64($0))) }
    }
}
