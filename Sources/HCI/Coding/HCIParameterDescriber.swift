import BLECore

/// The ``HCIParameterCoder`` that prints fields as "name=value" pairs on one line.
///
/// Names are the specification's parameter names in lower case ("LE_Scan_Interval" prints as
/// "le_scan_interval"). Values print as their type describes them: typed values by their
/// `description` (durations with their unit, enumerations by name), dBm fields with "dBm",
/// addresses as "AA:BB:CC:DD:EE:FF", octet strings in hexadecimal, elements of an arrayed
/// parameter in braces.
public struct HCIParameterDescriber: HCIParameterCoder {
    /// Describing never fails.
    public typealias Failure = Never

    /// The pairs printed so far.
    public private(set) var parts: [String] = []

    /// A describer with nothing printed yet.
    public init() {}

    /// The pairs joined by single spaces.
    public var text: String { parts.joined(separator: " ") }

    /// Always false.
    public var isDecoding: Bool { false }
    /// Describers do not count octets: always 0.
    public var offset: Int { 0 }

    mutating func append(_ field: String, _ value: String) {
        parts.append("\(field.lowercased())=\(value)")
    }

    static func integer<T: FixedWidthInteger>(_ value: T, _ format: HCIFieldFormat) -> String {
        switch format {
        case .decimal:
            return String(value)
        case .hex:
            let digits = String(value, radix: 16, uppercase: true)
            let width = MemoryLayout<T>.size * 2
            return "0x" + String(repeating: "0", count: Swift.max(0, width - digits.count)) + digits
        }
    }

    /// Prints the octet in `format`.
    public mutating func code(_ value: inout UInt8, _ field: String, format: HCIFieldFormat) {
        append(field, Self.integer(value, format))
    }

    /// Prints the value in `format`.
    public mutating func code(_ value: inout UInt16, _ field: String, format: HCIFieldFormat) {
        append(field, Self.integer(value, format))
    }

    /// Prints the value in `format`.
    public mutating func codeUInt24(_ value: inout UInt32, _ field: String, format: HCIFieldFormat) {
        switch format {
        case .decimal: append(field, String(value))
        case .hex: append(field, "0x" + Hex.encode([UInt8(truncatingIfNeeded: value >> 16), UInt8(truncatingIfNeeded: value >> 8), UInt8(truncatingIfNeeded: value)]).uppercased())
        }
    }

    /// Prints the value in `format`.
    public mutating func code(_ value: inout UInt32, _ field: String, format: HCIFieldFormat) {
        append(field, Self.integer(value, format))
    }

    /// Prints the value in `format`.
    public mutating func code(_ value: inout UInt64, _ field: String, format: HCIFieldFormat) {
        append(field, Self.integer(value, format))
    }

    /// Prints the value with "dBm"; 127, which these fields use for "not available" or "no
    /// preference", prints as "127 (n/a)".
    public mutating func code(dBm value: inout Int8, _ field: String) {
        append(field, value == 127 ? "127 (n/a)" : "\(value) dBm")
    }

    /// Prints the address as "AA:BB:CC:DD:EE:FF".
    public mutating func code(_ value: inout BluetoothAddress, _ field: String) {
        append(field, value.description)
    }

    /// Prints the octets in hexadecimal, "(none)" when empty.
    public mutating func code(_ value: inout [UInt8], count: Int, _ field: String) {
        append(field, value.isEmpty ? "(none)" : Hex.encode(value))
    }

    /// Prints the octets in hexadecimal, "(none)" when empty.
    public mutating func codeRemaining(_ value: inout [UInt8], _ field: String) {
        append(field, value.isEmpty ? "(none)" : Hex.encode(value))
    }

    /// Prints the value's own description (a name, a duration with its unit).
    public mutating func code<T: HCIFieldValue>(_ value: inout T, _ field: String) {
        append(field, value.description)
    }

    /// Prints the elements in braces inside brackets.
    public mutating func code<E: HCIParameterLayout>(_ elements: inout [E], count: Int, _ field: String) {
        let items = elements.map { "{\($0.fieldsDescription)}" }
        append(field, "[" + items.joined(separator: ", ") + "]")
    }

    /// Describers check nothing.
    public mutating func check(_ condition: Bool, _ field: String, offset: Int, _ reason: @autoclosure () -> String) {}
}
