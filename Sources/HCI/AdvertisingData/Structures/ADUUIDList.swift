import BLECore

/// A list of service UUIDs all written in one width, as the Service UUID lists (AD types
/// 0x02...0x07, CSS Part A, 1.1) and the Service Solicitation lists (0x14, 0x1F, 0x15, CSS
/// Part A, 1.10) carry them: 2, 4 or 16 octets per UUID, least significant octet first, no count.
///
/// The width decides the AD type. Every UUID is stored in the list's width, so a list can always
/// be encoded: the initialisers refuse a UUID that has no alias of that width.
public struct ADUUIDList: Hashable, Sendable, CustomStringConvertible {
    /// The width every UUID in the list is written in.
    public let width: BluetoothUUID.Width
    /// The UUIDs, in order, each of ``width``.
    public let uuids: [BluetoothUUID]

    /// A list of `uuids` written in `width`.
    ///
    /// - Returns: nil when a UUID has no alias of that width (for example a vendor 128-bit UUID
    ///   in a 16-bit list). Any UUID fits a 128-bit list.
    public init?(width: BluetoothUUID.Width, uuids: [BluetoothUUID]) {
        var out: [BluetoothUUID] = []
        out.reserveCapacity(uuids.count)
        for uuid in uuids {
            switch width {
            case .bits16:
                guard let v = uuid.uuid16 else { return nil }
                out.append(BluetoothUUID(v))
            case .bits32:
                guard let v = uuid.uuid32 else { return nil }
                out.append(BluetoothUUID(uuid32: v))
            case .bits128:
                out.append(uuid.as128Bit)
            }
        }
        self.width = width
        self.uuids = out
    }

    /// A list of 16-bit UUIDs, such as `[0x180D]` (Heart Rate).
    public init(uuids16: [UInt16]) {
        width = .bits16
        uuids = uuids16.map { BluetoothUUID($0) }
    }

    /// A list of 32-bit UUIDs.
    public init(uuids32: [UInt32]) {
        width = .bits32
        uuids = uuids32.map { BluetoothUUID(uuid32: $0) }
    }

    /// A list of UUIDs written in 128 bits.
    public init(uuids128: [BluetoothUUID]) {
        width = .bits128
        uuids = uuids128.map(\.as128Bit)
    }

    /// Reads the whole UUIDs of `width` in `data`; octets after the last whole UUID are ignored
    /// (the decoder reports them in a diagnostic).
    init(decoding data: ArraySlice<UInt8>, width: BluetoothUUID.Width) {
        let size = width.rawValue
        let count = data.count / size
        var out: [BluetoothUUID] = []
        out.reserveCapacity(count)
        var i = data.startIndex
        for _ in 0..<count {
            switch width {
            case .bits16:
                out.append(BluetoothUUID(UInt16(data[i]) | UInt16(data[i + 1]) << 8))
            case .bits32:
                out.append(BluetoothUUID(uuid32: ADBytes.uint32(data, at: i)))
            case .bits128:
                out.append(BluetoothUUID(high: ADBytes.uint64(data, at: i + 8), low: ADBytes.uint64(data, at: i)))
            }
            i += size
        }
        self.width = width
        self.uuids = out
    }

    /// The AD data octets: `width` octets per UUID.
    var dataCount: Int { uuids.count * width.rawValue }

    /// Appends every UUID in its own width (which is the list's), least significant octet first.
    func write(to w: inout ByteWriter) {
        for uuid in uuids { uuid.write(to: &w) }
    }

    /// "180D (Heart Rate), 180F (Battery)"; "none" for an empty list.
    public var description: String {
        var out = TextOutput(capacity: 32 * uuids.count + 8)
        writeDescription(to: &out)
        return out.string
    }

    /// Appends ``description`` to `out`.
    public func writeDescription(to out: inout TextOutput) {
        guard !uuids.isEmpty else {
            out.write("none")
            return
        }
        for (i, uuid) in uuids.enumerated() {
            if i > 0 { out.write(", ") }
            uuid.writeDescriptionWithName(to: &out)
        }
    }

    /// Appends the ``description`` of the list that `data` holds in `width` (its whole entries,
    /// as ``init(decoding:width:)`` reads them) to `out`, without making the list.
    static func writeDescription(data: UnsafeBufferPointer<UInt8>, width: BluetoothUUID.Width, to out: inout TextOutput) {
        let size = width.rawValue
        let count = data.count / size
        guard count > 0 else {
            out.write("none")
            return
        }
        for k in 0..<count {
            if k > 0 { out.write(", ") }
            let i = k * size
            let uuid: BluetoothUUID
            switch width {
            case .bits16: uuid = BluetoothUUID(UInt16(data[i]) | UInt16(data[i + 1]) << 8)
            case .bits32: uuid = BluetoothUUID(uuid32: ADBytes.uint32(data, at: i))
            case .bits128: uuid = BluetoothUUID(high: ADBytes.uint64(data, at: i + 8), low: ADBytes.uint64(data, at: i))
            }
            uuid.writeDescriptionWithName(to: &out)
        }
    }

    /// "16-bit", "32-bit" or "128-bit".
    var widthName: StaticString { Self.widthName(width) }

    /// "16-bit", "32-bit" or "128-bit" for `width`.
    static func widthName(_ width: BluetoothUUID.Width) -> StaticString {
        switch width {
        case .bits16: return "16-bit"
        case .bits32: return "32-bit"
        case .bits128: return "128-bit"
        }
    }
}
