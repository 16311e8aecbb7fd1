import BLECore
import Foundation
import GATT

/// Reads and writes of characteristic values and descriptors (Core v5.4, Vol 3, Part G, 4.8,
/// 4.9 and 4.12).
extension Peripheral {
    /// Reads `characteristic`'s value whole: ATT_READ_REQ, then ATT_READ_BLOB_REQ for the rest
    /// while parts fill a response (Read Long Characteristic Values, Part G, 4.8.3), up to 512
    /// octets. The value is also kept in ``Characteristic/value``.
    ///
    /// - Returns: the value (0...512 octets).
    /// - Throws: ``BLEError/notConnected``; ``BLEError/characteristicNotFound(_:)`` when
    ///   `characteristic` is not from the current connection, or a Service Changed took its
    ///   service out of the tree (``servicesModified``; nothing is sent);
    ///   ``BLEError/att(_:handle:)`` (Read Not Permitted 0x02, Insufficient Authentication 0x05,
    ///   ...); ``BLEError/disconnected(_:)`` when the link drops meanwhile (between parts too);
    ///   ``BLEError/protocolError(_:)`` when the value grows past 512 octets;
    ///   ``BLEError/transactionTimeout``.
    public func readValue(for characteristic: Characteristic) async throws(BLEError) -> Data {
        let link = try connectedLink(for: characteristic)
        let handle = characteristic.remote.valueHandle
        let value = Data(try await link.gatt { (client) async throws(GATTClientError) -> [UInt8] in try await client.readLong(handle) })
        characteristic.setValue(value)
        return value
    }

    /// Reads `descriptor`'s value whole (Read Long Characteristic Descriptors, Part G, 4.12.2),
    /// and keeps it in ``Descriptor/value``.
    ///
    /// - Throws: as ``readValue(for:)-characteristic``, with
    ///   ``BLEError/characteristicNotFound(_:)`` naming the descriptor's UUID.
    public func readValue(for descriptor: Descriptor) async throws(BLEError) -> Data {
        let link = try connectedLink(for: descriptor)
        let handle = descriptor.handle
        let value = Data(try await link.gatt { (client) async throws(GATTClientError) -> [UInt8] in try await client.readLong(handle) })
        descriptor.setValue(value)
        return value
    }

    /// Writes `value` to `characteristic`.
    ///
    /// - ``WriteType/withResponse``: ATT_WRITE_REQ (Part G, 4.9.3), or for a value longer than
    ///   ATT_MTU - 3 octets, prepared writes and their execution (Write Long Characteristic
    ///   Values, 4.9.4); returns once the server has answered.
    /// - ``WriteType/withoutResponse``: ATT_WRITE_CMD (4.9.1); returns once the controller has
    ///   taken the packet. It waits for ACL credits (and for a place, see
    ///   ``canSendWriteWithoutResponse``) and is never dropped: it is sent, or the call throws.
    ///   Values written from one task reach the server in order. Cancelling the calling task
    ///   while the write waits for a place ends the wait: the write is not sent, and the call
    ///   throws ``BLEError/cancelled``.
    ///
    /// - Throws: ``BLEError/invalidArgument(_:)`` for a value longer than
    ///   ``maximumWriteValueLength(for:)``, or a write without response to a characteristic
    ///   without the Write Without Response property (nothing is sent); otherwise as
    ///   ``readValue(for:)-characteristic`` (Write Not Permitted 0x03, Invalid Attribute Value
    ///   Length 0x0D, ...).
    public func writeValue(_ value: Data, for characteristic: Characteristic, type: WriteType) async throws(BLEError) {
        let link = try connectedLink(for: characteristic)
        let handle = characteristic.remote.valueHandle
        let octets = [UInt8](value)
        let maximum = maximumWriteValueLength(for: type)
        guard octets.count <= maximum else {
            throw .invalidArgument("\(octets.count) octets for \(characteristic.uuid): a write \(type == .withResponse ? "with" : "without") response carries at most \(maximum)")
        }
        switch type {
        case .withResponse:
            try await link.gatt { (client) async throws(GATTClientError) in
                if octets.count <= client.maximumWriteValueLength {
                    try await client.write(octets, to: handle)
                } else {
                    try await client.writeLong(octets, to: handle)
                }
            }
        case .withoutResponse:
            guard characteristic.properties.contains(.writeWithoutResponse) else {
                throw .invalidArgument("\(characteristic) has no Write Without Response property; a server ignores such a command")
            }
            let window = link.window, ticket = window.ticket()
            defer { window.forget(ticket) }
            // The body runs in a task of its own (``PeripheralLink/perform(_:)``): the caller's
            // cancellation reaches its wait for a place through the ticket.
            let result: Result<Void, BLEError> = await withTaskCancellationHandler {
                do throws(BLEError) {
                    return .success(try await link.perform { () async -> Result<Void, BLEError>? in
                        switch await window.acquire(ticket) {
                        case .granted: break
                        case .ended: return nil                  // the link's end answers this call
                        case .cancelled: return .failure(.cancelled)
                        }
                        let outcome = await link.attempt { (client) async throws(GATTClientError) in
                            try await client.writeWithoutResponse(octets, to: handle)
                        }
                        // No outcome: the bearer closed under the write, and the link is ending.
                        window.release(linkEnding: outcome == nil)
                        return outcome
                    })
                } catch {
                    return .failure(error)
                }
            } onCancel: {
                window.abandon(ticket)
            }
            try result.get()
        }
    }

    /// Writes `value` to `descriptor` (Write Characteristic Descriptors, Part G, 4.12.3, or
    /// written long, 4.12.4), and keeps it in ``Descriptor/value``. The Client Characteristic
    /// Configuration descriptor (0x2902) is written by ``setNotifyValue(_:for:)`` only.
    ///
    /// - Throws: ``BLEError/invalidArgument(_:)`` for the Client Characteristic Configuration
    ///   descriptor or a value over 512 octets; otherwise as ``readValue(for:)-descriptor``.
    public func writeValue(_ value: Data, for descriptor: Descriptor) async throws(BLEError) {
        let link = try connectedLink(for: descriptor)
        guard descriptor.uuid != GATTAttributeType.clientCharacteristicConfiguration else {
            throw .invalidArgument("the Client Characteristic Configuration descriptor is written by setNotifyValue(_:for:)")
        }
        let octets = [UInt8](value)
        guard octets.count <= 512 else { throw .invalidArgument("\(octets.count) octets for a descriptor: at most 512") }
        let handle = descriptor.handle
        try await link.gatt { (client) async throws(GATTClientError) in
            if octets.count <= client.maximumWriteValueLength {
                try await client.write(octets, to: handle)
            } else {
                try await client.writeLong(octets, to: handle)
            }
        }
        descriptor.setValue(value)
    }
}
