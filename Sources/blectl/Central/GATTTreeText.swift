import BLE
import BLECore
import GATT

/// How the GATT client commands print: the discovered tree with SIG names, handles and
/// properties, values in hexadecimal (with the text when it is printable UTF-8), notifications
/// and indications as lines or JSON.
enum GATTTreeText {
    /// One line per service, include, characteristic and descriptor, indented by level:
    /// "Primary Service 180F (Battery) 0x0001...0x0004", "  Include service 0x0020...0x0025 1812 (Human Interface Device)",
    /// "  Characteristic 2A19 (Battery Level) value 0x0003 0x12 [read, notify]",
    /// "    Descriptor 0x0004 2902 (Client Characteristic Configuration)".
    static func lines(_ services: [Service]) -> [String] {
        var lines: [String] = []
        for service in services {
            lines.append("\(service.isPrimary ? "Primary" : "Secondary") Service \(service.uuid.descriptionWithName) \(range(service.handleRange))")
            for include in service.includedServices ?? [] {
                lines.append("  Include service \(range(include.handleRange)) \(include.uuid.descriptionWithName)")
            }
            for characteristic in service.characteristics ?? [] {
                lines.append("  " + line(characteristic))
                for descriptor in characteristic.descriptors ?? [] {
                    lines.append("    Descriptor \(Hex.hex16(descriptor.handle)) \(descriptor.uuid.descriptionWithName)")
                }
            }
        }
        return lines
    }

    /// "Characteristic 2A19 (Battery Level) value 0x0003 0x12 [read, notify]": the properties
    /// octet of the declaration and its names, as the GATT layer spells them (Core v5.4, Vol 3,
    /// Part G, 3.3.1.1).
    static func line(_ characteristic: Characteristic) -> String {
        let properties = GATTCharacteristicProperties(rawValue: characteristic.properties.rawValue)
        return "Characteristic \(characteristic.uuid.descriptionWithName) value \(Hex.hex16(characteristic.valueHandle)) \(properties)"
    }

    /// "0x0001...0x0004".
    static func range(_ handles: ClosedRange<UInt16>) -> String { "\(Hex.hex16(handles.lowerBound))...\(Hex.hex16(handles.upperBound))" }

    /// One line per thing the client worked around (``Peripheral/diagnostics``):
    /// "worked around: Database Hash read (Core v5.4, Vol 3, Part G, 7.3): ...; robust caching is off ...".
    static func workarounds(_ diagnostics: [PeripheralDiagnostic]) -> [String] {
        diagnostics.map { "worked around: \($0)" }
    }

    /// "0x0003: 64" or "0x0008: 4c696e7578424c45 \"LinuxBLE\"".
    static func value(_ value: [UInt8], handle: UInt16) -> String {
        "\(Hex.hex16(handle)): \(value.isEmpty ? "(empty)" : Hex.encode(value))" + (text(value).map { " \(JSONValue.string($0))" } ?? "")
    }

    /// "notification 0x0003 64" / "indication 0x0005 0100".
    static func line(_ update: ValueUpdate, handle: UInt16) -> String {
        "\(update.kind) \(Hex.hex16(handle)) \(Hex.encode([UInt8](update.value)))"
    }

    /// {"uuid":"2A37","handle":3,"kind":"notification","value":"0048"}.
    static func json(_ update: ValueUpdate, handle: UInt16, uuid: BluetoothUUID) -> String {
        JSONValue.object([
            ("uuid", .string(uuid.description)), ("handle", .int(Int(handle))),
            ("kind", .string(update.kind.description)),
            ("value", .string(Hex.encode([UInt8](update.value)))),
        ]).description
    }

    /// The value as text when it is at least 3 octets of valid UTF-8 without control characters
    /// (shorter values are more often numbers that happen to be printable: 0x64 is 100 %, not "d").
    static func text(_ value: [UInt8]) -> String? {
        guard value.count >= 3, let text = String(validating: value, as: UTF8.self),
              text.unicodeScalars.allSatisfy({ $0.value >= 0x20 && $0.value != 0x7F }) else { return nil }
        return text
    }
}
