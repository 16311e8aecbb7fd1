import ATT
import BLECore

/// The optional steps of whole-database discovery, best effort (Core v5.4, Vol 3, Part G,
/// 2.5.2 and 7): reading the Database Hash (7.3), writing Client Supported Features (7.2) and
/// enabling Service Changed indications (7.1).
///
/// They only serve robust caching and change tracking, so a server that answers one of them
/// with ATT_ERROR_RSP, with a malformed answer, or with an answer about another attribute type
/// does not fail the user's procedure: the client records a ``GATTClientDiagnostic``, switches
/// off what the step served for the rest of the connection, and goes on. Only the end of the
/// bearer (``GATTClientError/closed``, or a transaction timeout, which ends it, Part F, 3.3.3)
/// is thrown, since no ATT PDU may follow it.
extension GATTClient {
    /// The Database Hash (Part G, 7.3) read best effort, as ``discoverDatabase()`` reads it
    /// (Read Using Characteristic UUID, 4.8.2), for a caller that keeps its own cache: an
    /// unusable answer costs the caller its cache, never its procedure.
    ///
    /// - Returns: the 16-octet value and the handle the server listed; nil when robust caching
    ///   is off on this connection, when the server has no Database Hash (Attribute Not Found),
    ///   or when the answer is unusable (an error response, a malformed or wrong-type answer:
    ///   a ``GATTClientDiagnostic`` in ``diagnostics``, and robust caching off).
    /// - Throws: ``GATTClientError/closed`` and ``GATTClientError/timeout`` only.
    public func readUsableDatabaseHash() async throws(GATTClientError) -> (value: [UInt8], handle: UInt16)? {
        guard !isRobustCachingOff else { return nil }
        let request = ATTReadByTypeRequest(startingHandle: 0x0001, endingHandle: 0xFFFF, attributeType: GATTProfileUUID.databaseHash)
        let response: ATTPDU
        do {
            response = try await send(.readByTypeRequest(request))
        } catch {
            try optionalStepFailed(.databaseHashRead, error, .robustCachingOff)
            return nil
        }
        switch response {
        case .readByTypeResponse(let list):
            guard let entry = list.attributeData.first else { return nil }
            do {
                return (try RemoteDeclarations.databaseHash(entry.value, handle: entry.handle), entry.handle)
            } catch {
                try optionalStepFailed(.databaseHashRead, error, .robustCachingOff)
                return nil
            }
        case .errorResponse(let error) where error.errorCode == .attributeNotFound:
            return nil
        default:
            try optionalStepFailed(.databaseHashRead, Self.failure(response), .robustCachingOff)
            return nil
        }
    }

    /// Whether `tree` has a Database Hash characteristic whose value is at `handle`: a hash the
    /// server listed anywhere else answered for another type (Part F, 3.4.4.2).
    static func hasDatabaseHash(at handle: UInt16, in tree: [RemoteService]) -> Bool {
        tree.contains { service in
            service.characteristics.contains { $0.uuid == GATTProfileUUID.databaseHash && $0.valueHandle == handle }
        }
    }

    /// Checks a hash read at `hash.handle` against `tree`; when the tree shows it is not a
    /// Database Hash, records the diagnostic, switches robust caching off and returns nil.
    func checkedDatabaseHash(_ hash: (value: [UInt8], handle: UInt16)?, in tree: [RemoteService]) -> (value: [UInt8], handle: UInt16)? {
        guard let hash else { return nil }
        guard Self.hasDatabaseHash(at: hash.handle, in: tree) else {
            record(GATTClientDiagnostic(step: .databaseHashRead, problem: .notADatabaseHash(handle: hash.handle),
                                        consequence: .robustCachingOff))
            return nil
        }
        return hash
    }

    // MARK: Client Supported Features and Service Changed

    /// Writes ``Configuration/clientSupportedFeatures`` to Client Supported Features (7.2), once
    /// per connection, when the tree has the characteristic. A failure (the server's
    /// ATT_ERROR_RSP, such as Value Not Allowed when a bit set earlier would be cleared, or a
    /// protocol violation) is a diagnostic, and the value is not written again.
    func writeClientSupportedFeatures() async throws(GATTClientError) {
        let features = configuration.clientSupportedFeatures
        guard !features.isEmpty, !wroteClientSupportedFeatures, !clientSupportedFeaturesOff,
              let characteristic = genericAttributeCharacteristic(GATTProfileUUID.clientSupportedFeatures) else { return }
        do {
            try await write(features, to: characteristic.valueHandle)
            wroteClientSupportedFeatures = true
        } catch {
            try optionalStepFailed(.clientSupportedFeaturesWrite, error, .clientSupportedFeaturesNotWritten)
        }
    }

    /// Enables Service Changed indications through an internal subscriber, so that user
    /// subscriptions to the same CCCD never clear its bit. A Service Changed without a CCCD, or
    /// a failed CCCD write, is a diagnostic, and indications are not enabled again.
    func enableServiceChangedIndications() async throws(GATTClientError) {
        guard configuration.enablesServiceChangedIndications, serviceChangedSubscriber == nil, !serviceChangedIndicationsOff,
              let characteristic = genericAttributeCharacteristic(GATTProfileUUID.serviceChanged) else { return }
        guard let descriptor = characteristic.clientCharacteristicConfiguration else {
            record(GATTClientDiagnostic(step: .serviceChangedIndications,
                                        problem: .noServiceChangedConfiguration(valueHandle: characteristic.valueHandle),
                                        consequence: .serviceChangedIndicationsOff))
            return
        }
        // Also reached from a Service Changed indication's task, which can run after the close:
        // nothing is registered then (the close has ended the subscribers already).
        guard !isClosed else { throw .closed }
        let id = register(valueHandle: characteristic.valueHandle, configurationHandle: descriptor.handle,
                          kind: .indication, delivery: nil)
        serviceChangedSubscriber = id
        if let failure = await settled(descriptor.handle, needs: GATTClientSubscription.Kind.indication.configurationBit,
                                       subscriber: id) {
            drop(id)
            if serviceChangedSubscriber == id { serviceChangedSubscriber = nil }
            try optionalStepFailed(.serviceChangedIndications, failure, .serviceChangedIndicationsOff)
        }
    }

    /// On a bonded, cached reconnection: the server kept Service Changed indications enabled
    /// for this client (3.3.3.3), so the internal subscriber is recorded as written.
    func adoptServiceChangedConfiguration() {
        guard configuration.enablesServiceChangedIndications, serviceChangedSubscriber == nil,
              let characteristic = genericAttributeCharacteristic(GATTProfileUUID.serviceChanged),
              let descriptor = characteristic.clientCharacteristicConfiguration else { return }
        serviceChangedSubscriber = register(valueHandle: characteristic.valueHandle, configurationHandle: descriptor.handle,
                                            kind: .indication, delivery: nil)
        configurations[descriptor.handle]?.written |= GATTClientSubscription.Kind.indication.configurationBit
    }

    /// The characteristic `uuid` of the Generic Attribute service in ``services``, else in the
    /// service ``runOptionalSteps(genericAttribute:)`` gave.
    func genericAttributeCharacteristic(_ uuid: BluetoothUUID) -> RemoteCharacteristic? {
        for service in services where service.uuid == GATTProfileUUID.genericAttribute {
            if let characteristic = service.characteristic(uuid) { return characteristic }
        }
        return services.isEmpty ? adoptedGenericAttribute?.characteristic(uuid) : nil
    }

    /// Runs on this connection the optional steps of ``discoverDatabase()`` for a tree this
    /// client did not discover itself: one restored from storage and confirmed by an unchanged
    /// Database Hash, or one its caller discovered service by service. `genericAttribute` is
    /// that tree's Generic Attribute service (0x1801), with its characteristics and their
    /// descriptors. Client Supported Features is written (Core v5.4, Vol 3, Part G, 7.2) and
    /// Service Changed indications are enabled (7.1): an unbonded server forgets both between
    /// connections (2.5.2, 3.3.3.3). Each step is best effort, as in discovery: a bad answer is
    /// a diagnostic and switches off what the step served. Service Changed indications are
    /// then handled as after ``learnServiceChanged(valueHandle:)``. A client that holds a whole
    /// tree of its own runs the steps on that tree instead.
    ///
    /// - Throws: ``GATTClientError/invalidArgument(_:)`` when `genericAttribute` is another
    ///   service (nothing is sent); ``GATTClientError/closed`` or ``GATTClientError/timeout``
    ///   when the bearer ends under a step; nothing else.
    public func runOptionalSteps(genericAttribute: RemoteService) async throws(GATTClientError) {
        guard genericAttribute.uuid == GATTProfileUUID.genericAttribute else {
            throw .invalidArgument("\(genericAttribute.uuid) is not the Generic Attribute service (0x1801)")
        }
        if services.isEmpty {
            adoptedGenericAttribute = genericAttribute
            if let serviceChanged = genericAttribute.characteristic(GATTProfileUUID.serviceChanged) {
                learnedServiceChangedValueHandle = serviceChanged.valueHandle
            }
        }
        try await writeClientSupportedFeatures()
        try await enableServiceChangedIndications()
    }

    // MARK: Diagnostics

    /// An optional `step` failed with `error`. The bearer's end is thrown (a timeout with a
    /// diagnostic first, so that the user learns which step it was); anything else is recorded
    /// and `consequence` applied.
    func optionalStepFailed(_ step: GATTClientDiagnostic.Step, _ error: GATTClientError,
                            _ consequence: GATTClientDiagnostic.Consequence) throws(GATTClientError) {
        switch error {
        case .closed:
            throw error
        case .timeout:
            record(GATTClientDiagnostic(step: step, problem: .failed(error), consequence: .bearerEnded))
            throw error
        default:
            record(GATTClientDiagnostic(step: step, problem: .failed(error), consequence: consequence))
        }
    }

    /// Keeps `diagnostic` and applies its consequence.
    func record(_ diagnostic: GATTClientDiagnostic) {
        diagnostics.append(diagnostic)
        switch diagnostic.consequence {
        case .robustCachingOff:
            isRobustCachingOff = true
            databaseHash = nil
        case .clientSupportedFeaturesNotWritten: clientSupportedFeaturesOff = true
        case .serviceChangedIndicationsOff: serviceChangedIndicationsOff = true
        case .includeNotFollowed, .includesSkipped, .bearerEnded: break
        }
    }
}
