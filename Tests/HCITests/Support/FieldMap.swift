import BLECore
import HCI

/// A test-only coder that records where every field of a value lies: its name (with "[i]" for
/// elements of arrayed parameters, as the decoder names them), offset and size. The truncation
/// tests use it to state, for every cut length, which field the decoder must report.
struct FieldMap: HCIParameterCoder {
    typealias Failure = Never

    struct Field: Equatable, CustomStringConvertible {
        var name: String
        var offset: Int
        var size: Int
        var description: String { "\(name)@\(offset)+\(size)" }
    }

    private(set) var fields: [Field] = []
    private(set) var offset = 0
    private var suffix = ""

    var isDecoding: Bool { false }

    static func fields<T: HCIParameterLayout>(of value: T) -> [Field] {
        var map = FieldMap()
        var copy = value
        copy.layout(&map)
        return map.fields
    }

    private mutating func add(_ name: String, _ size: Int) {
        fields.append(Field(name: name + suffix, offset: offset, size: size))
        offset += size
    }

    mutating func code(_ value: inout UInt8, _ field: String, format: HCIFieldFormat) { add(field, 1) }
    mutating func code(_ value: inout UInt16, _ field: String, format: HCIFieldFormat) { add(field, 2) }
    mutating func codeUInt24(_ value: inout UInt32, _ field: String, format: HCIFieldFormat) { add(field, 3) }
    mutating func code(_ value: inout UInt32, _ field: String, format: HCIFieldFormat) { add(field, 4) }
    mutating func code(_ value: inout UInt64, _ field: String, format: HCIFieldFormat) { add(field, 8) }
    mutating func code(dBm value: inout Int8, _ field: String) { add(field, 1) }
    mutating func code(_ value: inout BluetoothAddress, _ field: String) { add(field, 6) }
    mutating func code(_ value: inout [UInt8], count: Int, _ field: String) { add(field, value.count) }
    mutating func codeRemaining(_ value: inout [UInt8], _ field: String) {
        // Never short: whatever is left is the field.
        fields.append(Field(name: field, offset: offset, size: 0))
        offset += value.count
    }
    mutating func code<T: HCIFieldValue>(_ value: inout T, _ field: String) { add(field, T.octets) }
    mutating func code<E: HCIParameterLayout>(_ elements: inout [E], count: Int, _ field: String) {
        let outer = suffix
        for index in elements.indices {
            suffix = outer + "[\(index)]"
            elements[index].layout(&self)
        }
        suffix = outer
    }
    mutating func check(_ condition: Bool, _ field: String, offset: Int, _ reason: @autoclosure () -> String) {}
}
