import BLECore

/// Service Data (AD types 0x16, 0x20, 0x21 for 16-, 32- and 128-bit UUIDs; CSS Part A, 1.11):
/// a service UUID followed by data the service defines.
///
/// The UUID's own ``BluetoothUUID/width`` decides the AD type it is sent as.
public struct ADServiceData: Hashable, Sendable, CustomStringConvertible {
    /// The service UUID, in the width it is sent in.
    public let uuid: BluetoothUUID
    /// The octets after the UUID, as sent.
    public let data: [UInt8]

    /// Service Data for `uuid`, sent in the UUID's own width, carrying `data`.
    public init(uuid: BluetoothUUID, data: [UInt8]) {
        self.uuid = uuid
        self.data = data
    }

    /// Reads a UUID of `width` and the data; nil when the octets cannot hold the UUID.
    init?(decoding octets: ArraySlice<UInt8>, width: BluetoothUUID.Width) {
        guard octets.count >= width.rawValue else { return nil }
        let end = octets.startIndex + width.rawValue
        guard let uuid = BluetoothUUID(littleEndianOctets: octets[..<end]) else { return nil }
        self.uuid = uuid
        self.data = Array(octets[end...])
    }

    /// The AD type: 0x16, 0x20 or 0x21 by the UUID's width.
    public var type: ADType {
        switch uuid.width {
        case .bits16: return .serviceData16
        case .bits32: return .serviceData32
        case .bits128: return .serviceData128
        }
    }

    var dataCount: Int { uuid.width.rawValue + data.count }

    func write(to w: inout ByteWriter) {
        uuid.write(to: &w)
        w.writeBytes(data)
    }

    /// "180D (Heart Rate): 0102" (the data in hexadecimal).
    public var description: String {
        var out = TextOutput(capacity: 64 + 2 * data.count)
        writeDescription(to: &out)
        return out.string
    }

    /// Appends ``description`` to `out`.
    public func writeDescription(to out: inout TextOutput) {
        data.withUnsafeBufferPointer { Self.writeDescription(uuid: uuid, data: $0, to: &out) }
    }

    /// Appends the ``description`` of Service Data for `uuid` with `data` to `out`: the text of
    /// the typed value, written from the octets as received.
    static func writeDescription(uuid: BluetoothUUID, data: UnsafeBufferPointer<UInt8>, to out: inout TextOutput) {
        uuid.writeDescriptionWithName(to: &out)
        if !data.isEmpty {
            out.write(": ")
            out.writeHex(data)
        }
    }
}
