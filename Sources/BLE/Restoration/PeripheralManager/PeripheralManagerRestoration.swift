import BLECore
import Foundation
import GATT

/// A peripheral manager's restoration: its ``PeripheralManagerState``, kept current as the
/// application adds and removes services and starts and stops advertising
/// (docs/state-restoration.md). As for a central, the manager's own end freezes the file.
typealias PeripheralManagerRestoration = RestorationStore<PeripheralManagerState>

extension RestorationStore where Body == PeripheralManagerState {
    /// `services` are published now, in this order.
    func published(_ services: [MutableService]) {
        let entries = services.map { service in
            PublishedServiceEntry(uuid: service.uuid, primary: service.isPrimary,
                                  includes: service.includedServices.compactMap { services.firstIndex(of: $0) },
                                  characteristics: service.characteristics.map { characteristic in
                                      PublishedCharacteristicEntry(uuid: characteristic.uuid, properties: characteristic.properties.rawValue,
                                                                   permissions: characteristic.permissions.rawValue,
                                                                   value: characteristic.value.map { HexOctets([UInt8]($0)) })
                                  })
        }
        update { $0.services = entries }
    }

    /// Advertising started with `data`.
    func advertising(_ data: AdvertisementData) {
        update { state in
            state.advertisement = AdvertisementEntry(data)
            state.advertising = true
        }
    }

    /// Advertising stopped (the data is kept).
    func advertisingStopped() {
        update { $0.advertising = false }
    }

    /// The mode came up with `address` as its static random address (nil: none of its choosing).
    func usesAddress(_ address: BluetoothAddress?) {
        guard current.staticRandomAddress != address else { return }
        update { $0.staticRandomAddress = address }
    }
}

extension PeripheralManagerState {
    /// The services of the file as new objects, their includes linked.
    func makeServices() -> [MutableService] {
        let made = services.map { entry in
            let service = MutableService(type: entry.uuid, primary: entry.primary)
            service.characteristics = entry.characteristics.map {
                MutableCharacteristic(type: $0.uuid, properties: CharacteristicProperties(rawValue: $0.properties),
                                      value: $0.value.map { Data($0.octets) }, permissions: AttributePermissions(rawValue: $0.permissions))
            }
            return service
        }
        for (service, entry) in zip(made, services) { service.includedServices = entry.includes.map { made[$0] } }
        return made
    }
}

extension PeripheralManagerCore {
    /// Brings back what the state file held (`state`, read before bring-up, whose static random
    /// address the mode was given), before the manager is powered on: the services published
    /// again on `server`, advertising started again on `backend` if it was on; then
    /// ``PeripheralManagerEvent/willRestoreState(_:)``. What cannot be brought back is reported
    /// (``RestorationProblem/Kind/notRestored``).
    func restore(_ state: PeripheralManagerState, on server: GATTServer, backend: any PeripheralBackend) async {
        guard let restoration else { return }
        var services = state.makeServices()
        do {
            try await serve(services, on: server)
        } catch {
            restoration.notRestored("publishing the \(services.count) services again failed: \(error)")
            services = []
        }
        var advertised = false
        if state.advertising, let entry = state.advertisement {
            do {
                let data = entry.data
                try await backend.startAdvertising(try data.structures(), scanResponse: data.scanResponseStructures,
                                                   connectable: entry.connectable)
                advertising.withLock { $0 = true }
                advertised = true
            } catch {
                restoration.notRestored("advertising again failed: \(error)")
            }
        }
        eventInput.yield(.willRestoreState(RestoredPeripheralManagerState(services: services, advertisementData: state.advertisement?.data,
                                                                           isAdvertising: advertised)))
    }

    /// Advertises `data` (see ``PeripheralManager/startAdvertising(_:)``).
    func startAdvertising(_ data: AdvertisementData) async throws(BLEError) {
        let (backend, _) = try await ready()
        try await backend.startAdvertising(try data.structures(), scanResponse: data.scanResponseStructures, connectable: data.isConnectable)
        advertising.withLock { $0 = true }
        advertised = data
        restoration?.advertising(data)
    }

    /// Stops advertising (see ``PeripheralManager/stopAdvertising()``).
    func stopAdvertising() async {
        // Beyond the caller's cancellation: cleanup that stops advertising must stop it, or a
        // reset would start it again.
        guard let (backend, _) = try? await ready(cancellable: false) else { return }
        await backend.stopAdvertising()
        advertising.withLock { $0 = false }
        advertised = nil
        restoration?.advertisingStopped()
    }
}
