import BLECore

/// What a ``CentralManager`` with a restore identifier keeps in its state file (the `state`
/// member of ``StateFileEnvelope``; docs/state-restoration.md): the peripherals it knew, and
/// the scan that ran.
struct CentralState: RestorationBody {
    static var role: String { "central" }

    /// At most this many peripherals are kept; beyond it, the ones longest unused and not to
    /// be reconnected are forgotten first.
    static let maximumPeripherals = 128

    /// The peripherals, least recently changed first.
    var peripherals: [PeripheralEntry] = []
    /// The scan that was running; nil for none.
    var scan: ScanEntry?

    mutating func layout<C: StateCoding>(_ coder: inout C) throws(C.Failure) {
        try coder.field(&peripherals, "peripherals")
        try coder.field(&scan, "scan")
    }

    func validate(at path: JSONPath) throws(StateFileFault) {
        var seen = Set<PeripheralIdentityKey>()
        for (index, entry) in peripherals.enumerated() where !seen.insert(entry.key).inserted {
            throw StateFileFault(path: JSONPath(path.components + [.member("peripherals"), .index(index)]),
                                 reason: "\(entry.address) (\(entry.addressType)) is listed twice")
        }
        guard peripherals.count <= Self.maximumPeripherals else {
            throw StateFileFault(path: JSONPath(path.components + [.member("peripherals")]),
                                 reason: "\(peripherals.count) peripherals; a state file keeps at most \(Self.maximumPeripherals)")
        }
    }
}

/// A peripheral's identity address and its type: what an entry is keyed by.
struct PeripheralIdentityKey: Hashable, Sendable {
    var address: BluetoothAddress
    var type: Peripheral.AddressType
}

/// Whether a peripheral is to be reconnected when the manager is restored.
enum ConnectionIntent: String, StateValue, Hashable {
    /// No: it was disconnected, or the application cancelled its connection.
    case none
    /// Yes: ``CentralManager/connect(_:options:)`` was making its link.
    case connecting
    /// Yes: it was connected.
    case connected

    var json: JSONValue { .string(rawValue) }

    init(json: JSONValue, at path: JSONPath) throws(StateFileFault) {
        let text = try String(json: json, at: path)
        guard let intent = ConnectionIntent(rawValue: text) else {
            throw StateFileFault(path: path, reason: "\"\(text)\"; expected \"none\", \"connecting\" or \"connected\"")
        }
        self = intent
    }
}

extension Peripheral.AddressType: StateValue {
    /// "public" or "random".
    var json: JSONValue { .string(description) }

    init(json: JSONValue, at path: JSONPath) throws(StateFileFault) {
        switch try String(json: json, at: path) {
        case "public": self = .public
        case "random": self = .random
        case let other: throw StateFileFault(path: path, reason: "\"\(other)\"; expected \"public\" or \"random\"")
        }
    }
}

/// The scan that was running: ``CentralManager/scanForPeripherals(withServices:options:)``'s
/// arguments.
struct ScanEntry: StateRecord, Hashable {
    /// The service filter; nil for every peripheral.
    var services: [BluetoothUUID]?
    /// ``ScanOptions/allowDuplicates``.
    var allowDuplicates = false
    /// ``ScanOptions/solicitedServiceUUIDs``.
    var solicitedServices: [BluetoothUUID] = []
    /// True for a passive scan (``ScanOptions/scanType``); absent (nil) for an active one, as in
    /// files written before scans could be passive.
    var passive: Bool?

    mutating func layout<C: StateCoding>(_ coder: inout C) throws(C.Failure) {
        try coder.field(&services, "services")
        try coder.field(&allowDuplicates, "allowDuplicates")
        try coder.field(&solicitedServices, "solicitedServices")
        try coder.field(&passive, "passive")
    }
}
