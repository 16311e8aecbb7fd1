import BLECore

/// The ``ATTFieldCoder`` that finds the Attribute Handles a PDU carries (``ATTParameter/isAttributeHandle``):
/// the attribute it reads, writes or notifies, and the attributes its lists name (a Set Of
/// Handles, the handles of Attribute Data). Range bounds, found and group handles and the
/// Attribute Handle In Error of ATT_ERROR_RSP are not attribute handles of the PDU.
struct ATTHandleCollector: ATTFieldCoder {
    /// Whether to look into lists; without, only the PDU's own Attribute Handle is found.
    let includesLists: Bool
    /// The Attribute Handles found, in wire order.
    private(set) var handles: [UInt16] = []

    /// A collector that looks into lists when `includesLists`.
    init(includesLists: Bool) { self.includesLists = includesLists }

    var offset: Int { 0 }

    mutating func handle(_ value: inout UInt16, _ parameter: ATTParameter) {
        if parameter.isAttributeHandle { handles.append(value) }
    }

    mutating func integer(_ value: inout UInt8, _ parameter: ATTParameter) {}
    mutating func integer(_ value: inout UInt16, _ parameter: ATTParameter) {}
    mutating func integer(_ value: inout UInt32, _ parameter: ATTParameter) {}
    mutating func integerOctets(_ value: inout UInt64, _ parameter: ATTParameter) {}
    mutating func code<T: ATTCodedValue>(_ value: inout T, _ parameter: ATTParameter) {}
    mutating func remaining(_ value: inout [UInt8], _ parameter: ATTParameter, reserving reserved: Int) {}
    mutating func uuid(_ value: inout BluetoothUUID, _ parameter: ATTParameter) {}
    mutating func uuid16(_ value: inout UInt16, _ parameter: ATTParameter) {}

    mutating func handles(_ value: inout [UInt16], _ parameter: ATTParameter, element: ATTParameter, minimumCount: Int) {
        if includesLists, element.isAttributeHandle { handles += value }
    }

    mutating func list<E: ATTLayout>(_ entries: inout [E], _ parameter: ATTParameter, entrySize: Int, minimumCount: Int) {
        guard includesLists else { return }
        for index in entries.indices { entries[index].walk(&self) }
    }

    mutating func sequence<E: ATTLayout>(_ entries: inout [E], _ parameter: ATTParameter, minimumLength: Int) {
        guard includesLists else { return }
        for index in entries.indices { entries[index].walk(&self) }
    }

    mutating func lengthValue(_ length: inout UInt16, _ value: inout [UInt8], _ lengthParameter: ATTParameter,
                              _ valueParameter: ATTParameter, truncatable: Bool) {}
    mutating func group<G: ATTLayout>(_ value: inout G, _ parameter: ATTParameter, size: Int) { value.walk(&self) }
    mutating func check(_ condition: Bool, _ parameter: ATTParameter, offset: Int, _ reason: @autoclosure () -> String) {}

    /// The Attribute Handles of `value`, looking into lists when `includesLists`.
    static func handles<L: ATTLayout>(of value: L, includesLists: Bool) -> [UInt16] {
        var collector = ATTHandleCollector(includesLists: includesLists)
        var copy = value
        copy.walk(&collector)
        return collector.handles
    }
}
