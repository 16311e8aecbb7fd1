import BLECore
import Foundation

/// What a ``PeripheralManager`` with a restore identifier keeps in its state file (the `state`
/// member of ``StateFileEnvelope``; docs/state-restoration.md): its published services, its
/// advertising data, and whether it was advertising.
///
/// **No CCCD values.** A server keeps a client's Client Characteristic Configuration across
/// connections only for a bonded client; for any other it "shall be set to the default value at
/// each connection" (Core v5.4, Vol 3, Part G, 3.3.3.3), and likewise a client's attribute
/// cache and change-awareness outlive a connection only with a trusted relationship (2.5.2).
/// Host mode has no bonding yet, so no central is bonded: restoring subscriptions by address
/// would break that rule, and would hand them to any device that takes the address (an
/// unresolved, unauthenticated address proves nothing). So this version stores none; a
/// restored manager starts with no subscriber, and each central subscribes again when it
/// reconnects (a central restored by this package does so by itself). The format will gain
/// them, keyed by the identity address learnt in pairing, when bonding comes.
struct PeripheralManagerState: RestorationBody {
    static var role: String { "peripheralManager" }

    /// The published services, in the order they were added.
    var services: [PublishedServiceEntry] = []
    /// The advertising data last given to ``PeripheralManager/startAdvertising(_:)``; nil when never.
    var advertisement: AdvertisementEntry?
    /// Whether advertising was on.
    var advertising = false
    /// The static random address host mode chose for a controller without a public address
    /// (Core v5.4, Vol 6, Part B, 1.3.2.1), given to the successor's bring-up so that centrals
    /// find the peripheral where they knew it; nil with a public address, and in kernel mode.
    var staticRandomAddress: BluetoothAddress?

    mutating func layout<C: StateCoding>(_ coder: inout C) throws(C.Failure) {
        try coder.field(&services, "services")
        try coder.field(&advertisement, "advertisement")
        try coder.field(&advertising, "advertising")
        try coder.field(&staticRandomAddress, "staticRandomAddress")
    }

    func validate(at path: JSONPath) throws(StateFileFault) {
        for (index, service) in services.enumerated() {
            for (position, include) in service.includes.enumerated() where include < 0 || include >= services.count || include == index {
                throw StateFileFault(path: JSONPath(path.components + [.member("services"), .index(index), .member("includes"), .index(position)]),
                                     reason: "\(include) is not the position of another service in services")
            }
        }
        if advertising, advertisement == nil {
            throw StateFileFault(path: JSONPath(path.components + [.member("advertising")]), reason: "advertising without an advertisement")
        }
        if let address = staticRandomAddress, !address.isValidStaticRandom {
            throw StateFileFault(path: JSONPath(path.components + [.member("staticRandomAddress")]),
                                 reason: "\(address) is not a static random address (its two most significant bits must be 1, the rest neither all 0 nor all 1)")
        }
    }
}
