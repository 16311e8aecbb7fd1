import BLECore

/// The ``ATTFieldCoder`` that counts the octets the encoder would write, without writing them.
struct ATTFieldCounter: ATTFieldCoder {
    /// The octets counted so far.
    private(set) var count = 0

    var offset: Int { 0 }

    mutating func handle(_ value: inout UInt16, _ parameter: ATTParameter) { count &+= 2 }
    mutating func integer(_ value: inout UInt8, _ parameter: ATTParameter) { count &+= 1 }
    mutating func integer(_ value: inout UInt16, _ parameter: ATTParameter) { count &+= 2 }
    mutating func integer(_ value: inout UInt32, _ parameter: ATTParameter) { count &+= 4 }
    mutating func integerOctets(_ value: inout UInt64, _ parameter: ATTParameter) { count &+= 8 }
    mutating func code<T: ATTCodedValue>(_ value: inout T, _ parameter: ATTParameter) { count &+= 1 }
    mutating func remaining(_ value: inout [UInt8], _ parameter: ATTParameter, reserving reserved: Int) { count &+= value.count }
    /// 2 octets for a 16-bit UUID, 16 for any other (a 32-bit one is written in 128 bits).
    mutating func uuid(_ value: inout BluetoothUUID, _ parameter: ATTParameter) { count &+= value.width == .bits16 ? 2 : 16 }
    mutating func uuid16(_ value: inout UInt16, _ parameter: ATTParameter) { count &+= 2 }

    mutating func handles(_ value: inout [UInt16], _ parameter: ATTParameter, element: ATTParameter, minimumCount: Int) {
        count &+= 2 &* value.count
    }

    mutating func list<E: ATTLayout>(_ entries: inout [E], _ parameter: ATTParameter, entrySize: Int, minimumCount: Int) {
        for index in entries.indices { entries[index].walk(&self) }
    }

    mutating func sequence<E: ATTLayout>(_ entries: inout [E], _ parameter: ATTParameter, minimumLength: Int) {
        for index in entries.indices { entries[index].walk(&self) }
    }

    mutating func lengthValue(_ length: inout UInt16, _ value: inout [UInt8], _ lengthParameter: ATTParameter,
                              _ valueParameter: ATTParameter, truncatable: Bool) {
        count &+= 2 &+ value.count
    }

    mutating func group<G: ATTLayout>(_ value: inout G, _ parameter: ATTParameter, size: Int) { value.walk(&self) }
    mutating func check(_ condition: Bool, _ parameter: ATTParameter, offset: Int, _ reason: @autoclosure () -> String) {}

    /// The octets `value`'s fields take.
    static func count<L: ATTLayout>(_ value: L) -> Int {
        var counter = ATTFieldCounter()
        var copy = value
        copy.walk(&counter)
        return counter.count
    }
}
