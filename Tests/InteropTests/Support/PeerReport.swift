import Foundation

/// One JSON line a peer script reported: `{"event": NAME, ...}` (Tests/Interop/interop.py).
/// Test-only. Octet strings are lowercase hex; ``bytes(_:)`` turns them back into octets.
struct PeerReport: Sendable, CustomStringConvertible {
    /// The line as the script wrote it.
    let line: String
    /// Its "event" field.
    let event: String
    /// Every field, "event" included.
    let fields: [String: PeerJSON]

    /// Parses a line; nil when it is not a JSON object with a string "event" (Bumble's own
    /// prints, if any, are only logged).
    init?(line: String) {
        guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
              let event = object["event"] as? String else { return nil }
        self.line = line
        self.event = event
        fields = object.mapValues(PeerJSON.init)
    }

    /// A field as a string.
    func string(_ key: String) -> String? { fields[key]?.string }
    /// A field as an integer.
    func int(_ key: String) -> Int? { fields[key]?.int }
    /// A hex field as octets; nil when missing or not hex.
    func bytes(_ key: String) -> [UInt8]? { fields[key]?.string.flatMap(PeerJSON.octets(hex:)) }

    var description: String { line }
}

/// A JSON value of a peer's report, Sendable (test-only).
enum PeerJSON: Sendable, Equatable {
    case string(String)
    case number(Double)
    case bool(Bool)
    case array([PeerJSON])
    case object([String: PeerJSON])
    case null

    /// Converts what JSONSerialization returned.
    init(_ value: Any) {
        switch value {
        // JSON true and false come as NSNumbers of type "c" (char); numbers as "q" or "d".
        case let number as NSNumber where number.objCType.pointee == CChar(UInt8(ascii: "c")): self = .bool(number.boolValue)
        case let number as NSNumber: self = .number(number.doubleValue)
        case let string as String: self = .string(string)
        case let array as [Any]: self = .array(array.map(PeerJSON.init))
        case let object as [String: Any]: self = .object(object.mapValues(PeerJSON.init))
        default: self = .null
        }
    }

    var string: String? { if case .string(let value) = self { value } else { nil } }
    var int: Int? { if case .number(let value) = self, value == value.rounded() { Int(value) } else { nil } }
    var bool: Bool? { if case .bool(let value) = self { value } else { nil } }
    var array: [PeerJSON]? { if case .array(let value) = self { value } else { nil } }
    subscript(key: String) -> PeerJSON? { if case .object(let value) = self { value[key] } else { nil } }

    /// "0aff" as [0x0A, 0xFF]; nil for an odd length or a non-hex digit.
    static func octets(hex: String) -> [UInt8]? {
        let digits = Array(hex.utf8)
        guard digits.count.isMultiple(of: 2) else { return nil }
        var octets: [UInt8] = []
        octets.reserveCapacity(digits.count / 2)
        for index in stride(from: 0, to: digits.count, by: 2) {
            guard let high = nibble(digits[index]), let low = nibble(digits[index + 1]) else { return nil }
            octets.append(high << 4 | low)
        }
        return octets
    }

    private static func nibble(_ digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
