import BLECore

/// One peripheral a central knew: its identity, whether it is to be reconnected, and the GATT
/// database discovered on its last connection with the Database Hash read then.
struct PeripheralEntry: StateRecord, Hashable {
    /// The identity address (Core v5.4, Vol 6, Part B, 1.3).
    var address = BluetoothAddress(0)
    /// Public or random.
    var addressType = Peripheral.AddressType.random
    /// The local name it advertised last, if heard.
    var name: String?
    /// Whether it is reconnected on restoration.
    var connection = ConnectionIntent.none
    /// The Database Hash (Vol 3, Part G, 7.3) read on the connection the services were
    /// discovered on: 16 octets; nil when the server has none (then a restoration rediscovers).
    var databaseHash: HexOctets?
    /// The primary services discovered, in handle order; nil when none was discovered.
    var services: [ServiceEntry]?
    /// Services found only through an include (secondary ones), in handle order.
    var includedServices: [ServiceEntry]?

    var key: PeripheralIdentityKey { PeripheralIdentityKey(address: address, type: addressType) }

    mutating func layout<C: StateCoding>(_ coder: inout C) throws(C.Failure) {
        try coder.field(&address, "address")
        try coder.field(&addressType, "addressType")
        try coder.field(&name, "name")
        try coder.field(&connection, "connection")
        try coder.field(&databaseHash, "databaseHash")
        try coder.field(&services, "services")
        try coder.field(&includedServices, "includedServices")
    }

    func validate(at path: JSONPath) throws(StateFileFault) {
        func at(_ components: JSONPath.Component...) -> JSONPath { JSONPath(path.components + components) }
        if let hash = databaseHash, hash.octets.count != 16 {
            throw StateFileFault(path: at(.member("databaseHash")), reason: "\(hash.octets.count) octets; a Database Hash has 16")
        }
        let all = (services ?? []) + (includedServices ?? [])
        for (member, list) in [("services", services ?? []), ("includedServices", includedServices ?? [])] {
            for index in list.indices.dropFirst() where list[index].handle <= list[index - 1].endHandle {
                throw StateFileFault(path: at(.member(member), .index(index), .member("handle")),
                                     reason: "\(Hex.hex16(list[index].handle)) is not after the previous service's end")
            }
        }
        let handles = Set(all.map(\.handle))
        for (member, list) in [("services", services ?? []), ("includedServices", includedServices ?? [])] {
            for (index, service) in list.enumerated() {
                for (position, include) in (service.includes ?? []).enumerated() where !handles.contains(include) || include == service.handle {
                    throw StateFileFault(path: at(.member(member), .index(index), .member("includes"), .index(position)),
                                         reason: "\(Hex.hex16(include)) names no other service of this peripheral")
                }
            }
        }
    }
}
