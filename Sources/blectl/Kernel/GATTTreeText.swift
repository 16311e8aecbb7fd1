import BLECore
import GATT

/// How the kernel-mode commands print GATT: the discovered tree with SIG names and properties,
/// values in hexadecimal (with the text when it is printable UTF-8), notifications as lines or JSON.
enum GATTTreeText {
    /// One line per service, include, characteristic and descriptor, indented by level:
    /// "Primary Service 180F (Battery) 0x0001...0x0004", "  Characteristic 2A19 (Battery Level) value 0x0003 0x12 [read, notify]".
    static func lines(_ services: [RemoteService]) -> [String] {
        var lines: [String] = []
        for service in services {
            lines.append(service.description)
            for include in service.includedServices { lines.append("  \(include)") }
            for characteristic in service.characteristics {
                lines.append("  \(characteristic)")
                for descriptor in characteristic.descriptors { lines.append("    \(descriptor)") }
            }
        }
        return lines
    }

    /// One line per thing the client worked around (``GATTClient/diagnostics``):
    /// "worked around: Database Hash read (Core v5.4, Vol 3, Part G, 7.3): ...; robust caching is off ...".
    static func workarounds(_ diagnostics: [GATTClientDiagnostic]) -> [String] {
        diagnostics.map { "worked around: \($0)" }
    }

    /// "0x0003: 64" or "0x0008: 4c696e7578424c45 \"LinuxBLE\"".
    static func value(_ value: [UInt8], handle: UInt16) -> String {
        "\(Hex.hex16(handle)): \(value.isEmpty ? "(empty)" : Hex.encode(value))" + (text(value).map { " \(JSONValue.string($0))" } ?? "")
    }

    /// "notification 0x0003 64" / "indication 0x0005 0100".
    static func line(_ notification: RemoteNotification) -> String {
        "\(notification.isIndication ? "indication" : "notification") \(Hex.hex16(notification.handle)) \(Hex.encode(notification.value))"
    }

    /// {"uuid":"2A37","handle":3,"kind":"notification","value":"0048"}.
    static func json(_ notification: RemoteNotification, uuid: BluetoothUUID) -> String {
        JSONValue.object([
            ("uuid", .string(uuid.description)), ("handle", .int(Int(notification.handle))),
            ("kind", .string(notification.isIndication ? "indication" : "notification")),
            ("value", .string(Hex.encode(notification.value))),
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
