import BLECore

/// Which advertisers a scan delivers: with services asked for, those listing one of them, and
/// also those soliciting one of the solicited services; everyone when no service is asked for
/// (solicitation only adds to a service filter, as ``ScanOptions/solicitedServiceUUIDs`` says).
/// 16-, 32- and 128-bit forms of a UUID match each other.
struct ScanFilter: Sendable {
    let services: Set<BluetoothUUID>
    let solicited: Set<BluetoothUUID>

    init(services: [BluetoothUUID]?, solicited: [BluetoothUUID]) {
        self.services = Set(services ?? [])
        self.solicited = Set(solicited)
    }

    /// Whether `data` passes.
    func admits(_ data: AdvertisementData) -> Bool {
        if services.isEmpty { return true }
        return data.serviceUUIDs.contains(where: services.contains) || data.solicitedServiceUUIDs.contains(where: solicited.contains)
    }
}
