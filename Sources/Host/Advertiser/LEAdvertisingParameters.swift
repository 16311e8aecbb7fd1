import BLECore
import HCI

/// What an ``LEAdvertiser`` advertises and how: advertising data and scan response from typed AD
/// structures, connectable or not, the interval, and whether to advertise again when a
/// connection made from this advertising ends (Core v5.4, Vol 3, Part C, 11; Vol 4, Part E,
/// 7.8.5 to 7.8.9 and 7.8.53 to 7.8.56).
///
/// ```swift
/// let parameters = LEAdvertisingParameters(
///     advertisingData: [.flags([.leGeneralDiscoverableMode, .brEDRNotSupported]),
///                       .serviceUUIDs(ADUUIDList(uuids16: [0x180D]), isComplete: true)],
///     scanResponse: [.localName(ADLocalName("blectl"))])
/// ```
public struct LEAdvertisingParameters: Hashable, Sendable {
    /// The AD structures of the advertising data, in order.
    public var advertisingData: [ADStructure]
    /// The AD structures of the scan response, in order; sent to active scanners that ask.
    public var scanResponse: [ADStructure]
    /// Whether centrals may connect (ADV_IND, or a connectable extended set).
    public var isConnectable: Bool
    /// Advertising_Interval_Min, in 0.625 ms units: 0x0020 (20 ms)...0x4000 (10.24 s) with the
    /// legacy commands, 0x000020...0xFFFFFF with the extended ones. Default 0x00A0 (100 ms).
    public var intervalMin: LEExtendedAdvertisingInterval
    /// Advertising_Interval_Max, in 0.625 ms units, at least ``intervalMin``, same ranges.
    /// Default 0x00F0 (150 ms).
    public var intervalMax: LEExtendedAdvertisingInterval
    /// Own_Address_Type: the address to advertise with. Default public.
    public var ownAddressType: LEOwnAddressType
    /// Advertise again when a Disconnection Complete ends a connection made from this
    /// advertising (connecting stops advertising: Vol 4, Part E, 7.8.9 and 7.8.56). Default true.
    public var readvertiseAfterDisconnection: Bool
    /// Advertise again as soon as a connection is made from this advertising, so that more
    /// centrals can connect while the first stays (a peripheral serving many). The controller
    /// must support advertising while in the peripheral role (its LE supported states); when it
    /// refuses, the error is kept in ``LEAdvertiser/readvertisingErrors``. Default false.
    public var readvertiseAfterConnection: Bool
    /// Advertising_Handle of the set, with the extended commands (0x00...0xEF). Default 0x00.
    public var advertisingHandle: UInt8
    /// The set's random address, when ``ownAddressType`` is random and the controller uses the
    /// extended commands: an extended set has its own (HCI_LE_Set_Advertising_Set_Random_Address,
    /// Vol 4, Part E, 7.8.52), where legacy advertising uses the one of HCI_LE_Set_Random_Address.
    /// Host mode passes its static random address. Default nil (none sent).
    public var randomAddress: BluetoothAddress?

    /// Parameters from their values; see each property for the defaults.
    public init(advertisingData: [ADStructure] = [], scanResponse: [ADStructure] = [], isConnectable: Bool = true,
                intervalMin: LEExtendedAdvertisingInterval = LEExtendedAdvertisingInterval(rawValue: 0x00A0),
                intervalMax: LEExtendedAdvertisingInterval = LEExtendedAdvertisingInterval(rawValue: 0x00F0),
                ownAddressType: LEOwnAddressType = .public, readvertiseAfterDisconnection: Bool = true,
                readvertiseAfterConnection: Bool = false, advertisingHandle: UInt8 = 0x00,
                randomAddress: BluetoothAddress? = nil) {
        self.advertisingData = advertisingData
        self.scanResponse = scanResponse
        self.isConnectable = isConnectable
        self.intervalMin = intervalMin
        self.intervalMax = intervalMax
        self.ownAddressType = ownAddressType
        self.readvertiseAfterDisconnection = readvertiseAfterDisconnection
        self.readvertiseAfterConnection = readvertiseAfterConnection
        self.advertisingHandle = advertisingHandle
        self.randomAddress = randomAddress
    }

    /// The advertising interval values each family allows, in 0.625 ms units (Vol 4, Part E,
    /// 7.8.5 for legacy, 7.8.53 for extended).
    public static func allowedIntervalRange(for family: LECommandFamily) -> ClosedRange<UInt32> {
        switch family {
        case .legacy: return 0x0020...0x4000
        case .extended: return 0x0020...0xFF_FFFF
        }
    }
}
