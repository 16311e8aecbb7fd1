import BLECore
import HCI

/// Which LE advertising, scanning and initiating commands a controller has accepted since its
/// last reset: a host may use the legacy ones or the extended ones, never both (Core v5.4, Vol 4,
/// Part E, 3.1.1: a command of the other family gets Command Disallowed, 0x0C).
enum CommandFamily: Hashable {
    case legacy
    case extended
}

/// One advertising set: the legacy commands' single set (``ControllerModel/legacySetKey``) or an
/// extended one (Vol 4, Part E, 7.8.53-7.8.56).
struct AdvertisingSet {
    var handle: UInt8
    var properties: LEAdvertisingEventProperties
    /// The advertising interval used, in µs (the host's minimum).
    var interval: Micros
    var ownAddressType: LEOwnAddressType
    var peerAddressType: LEAddressType
    var peerAddress: BluetoothAddress
    var filterPolicy: LEAdvertisingFilterPolicy
    var sid: UInt8
    var txPower: Int8
    /// Secondary_Advertising_PHY of an extended set (LE 1M for legacy PDUs).
    var secondaryPHY: LEPHY
    /// The set's own random address (extended sets, 7.8.52).
    var randomAddress: BluetoothAddress?
    var data: [UInt8] = []
    var scanResponse: [UInt8] = []
    /// Fragments of advertising data being assembled (operation first/intermediate).
    var partialData: [UInt8]?
    var partialScanResponse: [UInt8]?
    var enabled = false
    /// Bumped whenever the set is enabled or disabled, so stale scheduled events are ignored.
    var generation: UInt64 = 0
    /// Max_Extended_Advertising_Events (0: no limit) and how many have been sent.
    var maxEvents: Int = 0
    var eventsSent: Int = 0

    var isLegacyPDU: Bool { properties.contains(.legacy) }
    var isConnectable: Bool { properties.contains(.connectable) }
    var isScannable: Bool { properties.contains(.scannable) }
    var isDirected: Bool { properties.contains(.directed) }
}

/// What a scanner is doing: its parameters and, while enabled, its duplicate filter.
struct ScanState {
    var active = false
    /// Scan interval and window, in µs.
    var interval: Micros = 10_000
    var window: Micros = 10_000
    var ownAddressType: LEOwnAddressType = .public
    var filterPolicy: LEScanningFilterPolicy = .basicUnfiltered
    var enabled = false
    var filterDuplicates = false
    var startedAt: Micros = 0
    var generation: UInt64 = 0
    /// Reports already given while duplicate filtering is on.
    var seen: Set<DuplicateKey> = []
}

/// What the duplicate filter remembers of a report: the advertiser, whether it was a scan
/// response, and the data (a changed payload is reported again).
struct DuplicateKey: Hashable {
    var addressType: UInt8
    var address: BluetoothAddress
    var isScanResponse: Bool
    var data: [UInt8]
}

/// A pending LE (Extended) Create Connection (Vol 4, Part E, 7.8.12, 7.8.66).
struct Initiation {
    var filterPolicy: LEInitiatorFilterPolicy
    var peerAddressType: LEAddressType
    var peerAddress: BluetoothAddress
    var ownAddressType: LEOwnAddressType
    var scanInterval: Micros
    var scanWindow: Micros
    var parameters: LEConnectionParameters
    var extended: Bool
    var startedAt: Micros
}

/// One end of a connection on a controller: the link and this end's role.
struct ConnectionEnd {
    var link: Int
    var role: LERole
}

/// The state of one virtual controller: everything HCI Reset clears, and what it keeps (its
/// configuration, its host attachment, its faults, its range). Accessed only under the radio's lock.
final class ControllerModel {
    /// The key of the legacy commands' advertising set in ``advertisingSets``.
    static let legacySetKey = 0x100

    let index: Int
    let configuration: VirtualControllerConfiguration
    /// The host's stream and its attachment number (a later attach replaces it).
    var port: AsyncStream<HCIPacket>.Continuation?
    var attachment: UInt64 = 0
    /// Packets handed to the current host since it attached.
    var delivered = 0
    /// Where the host's packets go instead of ``port``, once redirected
    /// (``VirtualHCIPort/redirectPackets(to:)``); cleared by the next attach.
    var redirect: (@Sendable (HCIPacket) -> Void)?
    var faults = VirtualFaults.none
    /// The time of the last packet held back by the HCI latency fault.
    var deliveryHorizon: Micros = 0
    var inRange = true
    var violations: [VirtualControllerViolation] = []
    /// Handles are numbered from here, distinct per controller (see ``RadioWorld/allocateHandle(_:)``).
    let handleBase: UInt16
    var nextHandleOffset: UInt16 = 0
    /// The opcodes implemented, and the Supported_Commands mask that lists exactly them.
    let implemented: Set<HCIOpcode>
    let supportedCommands: HCISupportedCommands

    // Cleared by HCI Reset.
    var eventMask = HCIEventMask.resetDefault
    var leEventMask = LEEventMask.resetDefault
    var randomAddress: BluetoothAddress?
    var family: CommandFamily?
    var legacyParameters = HCILESetAdvertisingParameters(advertisingIntervalMin: .init(rawValue: 0x0800),
                                                         advertisingIntervalMax: .init(rawValue: 0x0800))
    var legacyData: [UInt8] = []
    var legacyScanResponse: [UInt8] = []
    var advertisingSets: [Int: AdvertisingSet] = [:]
    var scan = ScanState()
    var scanDurationGeneration: UInt64 = 0
    var initiation: Initiation?
    var filterAcceptList: [DeviceAddress] = []
    var connections: [UInt16: ConnectionEnd] = [:]
    /// ACL packets from the host held in controller buffers, not yet acknowledged over the air.
    var buffersInUse = 0
    /// Flow control from the controller to the host (Vol 4, Part E, 4.2, 7.3.38-7.3.40): on
    /// with HCI_Set_Controller_To_Host_Flow_Control 0x01 or 0x03.
    var hostFlowControl = false
    /// HCI_Host_Buffer_Size's Host_Total_Num_ACL_Data_Packets.
    var hostACLBufferCount = 0
    /// ACL packets handed to the host and not yet returned by HCI_Host_Number_Of_Completed_Packets,
    /// per connection handle.
    var hostBuffersInUse: [UInt16: Int] = [:]
    /// LE Write Suggested Default Data Length (7.8.35): octets new connections start with.
    var suggestedTxOctets: UInt16 = 27
    var suggestedTxTime: UInt16 = 328
    /// LE Set Default PHY (7.8.48), as given.
    var defaultPHY = HCILESetDefaultPHY(allPHYs: [.noTXPreference, .noRXPreference], txPHYs: [], rxPHYs: [])

    /// Whether the host can take one more ACL data packet: always without flow control from the
    /// controller to the host, else while it holds fewer than its declared buffers.
    var hostHasRoom: Bool {
        !hostFlowControl || hostBuffersInUse.values.reduce(0, +) < hostACLBufferCount
    }

    init(index: Int, configuration: VirtualControllerConfiguration) {
        self.index = index
        self.configuration = configuration
        handleBase = UInt16(0x0040 + (index % 16) * 0x00C0)
        implemented = ImplementedCommands.opcodes(for: configuration)
        supportedCommands = ImplementedCommands.supportedCommands(implemented)
    }

    /// Clears what HCI Reset clears (Vol 4, Part E, 7.3.2); links are dropped by the caller.
    func resetState() {
        eventMask = .resetDefault
        leEventMask = .resetDefault
        randomAddress = nil
        family = nil
        legacyParameters = HCILESetAdvertisingParameters(advertisingIntervalMin: .init(rawValue: 0x0800),
                                                         advertisingIntervalMax: .init(rawValue: 0x0800))
        legacyData = []
        legacyScanResponse = []
        for key in advertisingSets.keys { advertisingSets[key]?.generation &+= 1 }
        advertisingSets = [:]
        let scanGeneration = scan.generation &+ 1
        scan = ScanState()
        scan.generation = scanGeneration
        scanDurationGeneration &+= 1
        initiation = nil
        filterAcceptList = []
        connections = [:]
        buffersInUse = 0
        hostFlowControl = false
        hostACLBufferCount = 0
        hostBuffersInUse = [:]
        suggestedTxOctets = 27
        suggestedTxTime = 328
        defaultPHY = HCILESetDefaultPHY(allPHYs: [.noTXPreference, .noRXPreference], txPHYs: [], rxPHYs: [])
    }

    /// The address this device uses for `ownAddressType`: public, or the given random address
    /// (0x02 and 0x03 fall back to public and random: this controller has no resolving list,
    /// Vol 4, Part E, 7.8.5). Nil when that address does not exist.
    func ownAddress(_ ownAddressType: LEOwnAddressType, random: BluetoothAddress?) -> DeviceAddress? {
        switch ownAddressType.rawValue {
        case 0x00, 0x02:
            return configuration.publicAddress.map { DeviceAddress(type: .public, address: $0) }
        case 0x01, 0x03:
            return random.map { DeviceAddress(type: .random, address: $0) }
        default:
            return nil
        }
    }

    /// Whether `device` is on the Filter Accept List (an anonymous entry, 0xFF, matches
    /// anonymous advertising only).
    func accepts(_ device: DeviceAddress) -> Bool {
        filterAcceptList.contains(device)
    }
}

/// A device address with its type, as the link layer sees it (Vol 6, Part B, 1.3).
struct DeviceAddress: Hashable {
    var type: LEAddressType
    var address: BluetoothAddress
}
