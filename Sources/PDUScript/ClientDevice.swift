import ATT
import BLECore
import GATT

/// A ``GATTClient`` under test: each trigger runs one client procedure (Core v5.4, Vol 3,
/// Part G, 4) and its result is written in the script's words (docs/pdu-scripts.md).
///
/// Triggers: `exchange-mtu`; `discover-primary`, `discover-primary-uuid UUID`,
/// `discover-included SERVICE`, `discover-characteristics SERVICE [UUID]`,
/// `discover-descriptors VALUE-HANDLE` (services and characteristics named by handles from an
/// earlier discovery in the same script); `read H`, `read-long H [OFFSET]`,
/// `read-by-uuid UUID [START END]`, `read-multiple H H...`, `read-multiple-variable H H...`;
/// `write H HEX`, `write-command H HEX`, `write-long H HEX`, `write-long-offset H OFFSET HEX`,
/// `reliable-write H HEX [H HEX...]`;
/// `subscribe VALUE-HANDLE notify|indicate`, `unsubscribe VALUE-HANDLE`, `next-notification`
/// (the next value of any subscription, waiting for it; `none` when none is buffered and no
/// subscription is live); `discover-database` (robust caching, Part G,
/// 2.5.2), `read-database-hash`, `known-services` (the tree the client holds, no PDU),
/// `next-service-change` (Part G, 7.1); `signing-key CSRK [SIGNCOUNTER]`, `signed-write H HEX`
/// (Part G, 4.9.2); `timed ACTION ARGS...` (runs ACTION, and moves the test clock 30 s once the
/// ATT engine's transaction timer is armed, Part F, 3.3.3).
///
/// The client keeps discovered databases in an ``InMemoryGATTClientCache`` under one peer
/// identity, so a second `discover-database` in a script takes the tree from the cache when
/// the Database Hash is unchanged.
public actor ClientDevice: PDUScriptDevice {
    let engine: ATTEngine
    let client: GATTClient
    /// The clock of the engine's transaction timer, when it is a ``TestClock`` (for `timed`).
    let testClock: TestClock?
    var services: [UInt16: RemoteService] = [:]
    var characteristics: [UInt16: RemoteCharacteristic] = [:]
    var notifications: [RemoteNotification] = []
    var notificationWaiter: CheckedContinuation<RemoteNotification?, Never>?
    var subscriptionTasks: [Task<Void, Never>] = []
    /// Subscriptions whose values still come: with none and nothing buffered,
    /// `next-notification` answers "none" rather than waiting for ever.
    var liveSubscriptions = 0
    /// The live subscriptions per value handle, oldest first (for `unsubscribe`).
    var subscriptions: [UInt16: [GATTClientSubscription]] = [:]
    var serviceChanges: [ClosedRange<UInt16>] = []
    var serviceChangeWaiter: CheckedContinuation<ClosedRange<UInt16>?, Never>?
    var serviceChangesEnded = false

    /// A client on `bearer`, with an ATT engine whose timeouts run on `clock`, caching
    /// discovered databases in memory for one peer.
    public init(bearer: any ATTBearer, clock: any Clock<Duration>) {
        engine = ATTEngine(bearer: bearer, clock: clock)
        testClock = clock as? TestClock
        client = GATTClient(engine: engine, configuration: .init(cache: InMemoryGATTClientCache(),
                                                                 peer: GATTPeerIdentity("PDU script peer")))
        let changes = client.serviceChanges
        Task { [weak self] in
            for await range in changes { await self?.changed(range) }
            await self?.changed(nil)
        }
    }

    public func perform(_ action: String, _ arguments: [String]) async throws(PDUScriptDeviceError) -> String {
        do {
            return try await run(action, arguments)
        } catch let error as PDUScriptDeviceError {
            throw error
        } catch let error as GATTClientError {
            return Self.text(error)
        } catch {
            return "failed \(error)"
        }
    }

    public func close() async {
        subscriptionTasks.forEach { $0.cancel() }
        await client.close()
        await engine.close()
        notificationWaiter?.resume(returning: nil)
        notificationWaiter = nil
        serviceChangeWaiter?.resume(returning: nil)
        serviceChangeWaiter = nil
    }

    func run(_ action: String, _ a: [String]) async throws -> String {
        switch action {
        case "exchange-mtu":
            return "mtu \(try await client.exchangeMTU())"
        case "discover-primary":
            return Self.text(remember(try await client.discoverPrimaryServices()))
        case "discover-primary-uuid":
            return Self.text(remember(try await client.discoverPrimaryServices(uuid: try uuid(a, 0))))
        case "discover-included":
            let included = try await client.discoverIncludedServices(of: try service(a, 0))
            return "includes " + (included.isEmpty ? "none" : included.map { include in
                "\(Self.hex(include.declarationHandle)) \(Self.hex(include.serviceHandle))..\(Self.hex(include.endHandle)) \(include.uuid)"
            }.joined(separator: ", "))
        case "discover-characteristics":
            let service = try service(a, 0)
            let found = a.count > 1 ? try await client.discoverCharacteristics(of: service, uuid: try uuid(a, 1))
                                    : try await client.discoverCharacteristics(of: service)
            for c in found { characteristics[c.valueHandle] = c }
            return "characteristics " + (found.isEmpty ? "none" : found.map { c in
                "\(Self.hex(c.declarationHandle)) \(Self.propertyText(c.properties)) value \(Self.hex(c.valueHandle)) \(c.uuid)"
            }.joined(separator: ", "))
        case "discover-descriptors":
            guard let characteristic = characteristics[try ScriptArguments.handle(try ScriptArguments.argument(a, 0, "value handle"))] else {
                throw PDUScriptDeviceError("discover the characteristic first: \(a.first ?? "")")
            }
            let found = try await client.discoverDescriptors(of: characteristic)
            var updated = characteristic
            updated.descriptors = found
            characteristics[characteristic.valueHandle] = updated
            return "descriptors " + (found.isEmpty ? "none" : found.map { "\(Self.hex($0.handle)) \($0.uuid)" }.joined(separator: ", "))
        case "read":
            return "value " + Hex.encode(try await client.read(try handle(a, 0)))
        case "read-long":
            let offset = a.count > 1 ? try ScriptArguments.handle(a[1]) : 0
            return "value " + Hex.encode(try await client.readLong(try handle(a, 0), offset: offset))
        case "read-by-uuid":
            let range = a.count > 2 ? try handle(a, 1)...handle(a, 2) : 0x0001...0xFFFF
            let values = try await client.read(characteristicUUID: try uuid(a, 0), in: range)
            return "values " + values.map { "\(Self.hex($0.handle)) \(Hex.encode($0.value))" }.joined(separator: ", ")
        case "read-multiple":
            return "value " + Hex.encode(try await client.readMultiple(try a.map(ScriptArguments.handle)))
        case "read-multiple-variable":
            return "values " + (try await client.readMultipleVariable(try a.map(ScriptArguments.handle))).map { Hex.encode($0) }
                .joined(separator: " ")
        case "write":
            try await client.write(try ScriptArguments.octets(a.dropFirst()), to: try handle(a, 0))
            return "ok"
        case "write-command":
            try await client.writeWithoutResponse(try ScriptArguments.octets(a.dropFirst()), to: try handle(a, 0))
            return "ok"
        case "write-long":
            try await client.writeLong(try ScriptArguments.octets(a.dropFirst()), to: try handle(a, 0))
            return "ok"
        case "write-long-offset":
            let offset = try ScriptArguments.handle(try ScriptArguments.argument(a, 1, "offset"))
            try await client.writeLong(try ScriptArguments.octets(a.dropFirst(2)), to: try handle(a, 0), offset: offset)
            return "ok"
        case "reliable-write":
            guard a.count.isMultiple(of: 2), !a.isEmpty else { throw PDUScriptDeviceError("reliable-write takes handle and value pairs") }
            var writes: [GATTReliableWrite] = []
            for i in stride(from: 0, to: a.count, by: 2) {
                writes.append(GATTReliableWrite(handle: try ScriptArguments.handle(a[i]), value: try ScriptArguments.octets(a[(i + 1)...(i + 1)])))
            }
            try await client.reliableWrite(writes)
            return "ok"
        case "subscribe":
            guard let characteristic = characteristics[try handle(a, 0)] else {
                throw PDUScriptDeviceError("discover the characteristic first: \(a.first ?? "")")
            }
            let kind: GATTClientSubscription.Kind = (a.count > 1 && a[1] == "indicate") ? .indication : .notification
            let subscription = try await client.notifications(for: characteristic, kind: kind)
            subscriptions[characteristic.valueHandle, default: []].append(subscription)
            liveSubscriptions += 1
            subscriptionTasks.append(Task { [weak self] in
                for await value in subscription { await self?.received(value) }
                await self?.subscriptionEnded()
            })
            return "ok"
        case "unsubscribe":
            let h = try handle(a, 0)
            guard var live = subscriptions[h], !live.isEmpty else {
                throw PDUScriptDeviceError("no subscription to \(Self.hex(h))")
            }
            let subscription = live.removeFirst()
            subscriptions[h] = live
            try await subscription.cancel()
            return "ok"
        case "discover-database":
            let tree = remember(try await client.discoverDatabase())
            for service in tree {
                for c in service.characteristics { characteristics[c.valueHandle] = c }
            }
            return Self.text(tree) + (await client.usedCachedDatabase ? " (cached)" : "")
        case "known-services":
            return Self.text(await client.services)
        case "read-database-hash":
            guard let hash = try await client.readDatabaseHash() else { return "hash none" }
            return "hash " + Hex.encode(hash)
        case "next-service-change":
            guard let range = await nextServiceChange() else { return "none" }
            return "changed \(Self.hex(range.lowerBound))..\(Self.hex(range.upperBound))"
        case "signing-key":
            let text = try ScriptArguments.argument(a, 0, "CSRK")
            guard let key = GATTSigningKey(mostSignificantFirst: text) else { throw PDUScriptDeviceError("not a CSRK: \(text)") }
            let counter = a.count > 1 ? UInt32(a[1]) : 0
            guard let counter else { throw PDUScriptDeviceError("not a SignCounter: \(a[1])") }
            await client.setSigningKey(key, signCounter: counter)
            return "ok"
        case "signed-write":
            try await client.signedWriteWithoutResponse(try ScriptArguments.octets(a.dropFirst()), to: try handle(a, 0))
            return "ok"
        case "timed":
            guard let clock = testClock else { throw PDUScriptDeviceError("timed needs the test clock") }
            let name = try ScriptArguments.argument(a, 0, "action")
            let rest = Array(a.dropFirst())
            let operation = Task { try await self.run(name, rest) }
            // Once the engine has armed its transaction timer, let 30 s pass.
            try await ScriptDeadline.advance(clock, by: .seconds(30))
            return try await operation.value
        case "next-notification":
            guard let value = await nextNotification() else { return "none" }
            return "\(value.isIndication ? "indication" : "notification") \(Self.hex(value.handle)) \(Hex.encode(value.value))"
        default:
            throw PDUScriptDeviceError("unknown client trigger \(action)")
        }
    }

    func received(_ value: RemoteNotification) {
        if let waiter = notificationWaiter {
            notificationWaiter = nil
            waiter.resume(returning: value)
        } else {
            notifications.append(value)
        }
    }

    /// A subscription's values ended (unsubscribed, or the bearer closed): with none left, a
    /// waiting `next-notification` gets nil.
    func subscriptionEnded() {
        liveSubscriptions -= 1
        guard liveSubscriptions == 0, let waiter = notificationWaiter else { return }
        notificationWaiter = nil
        waiter.resume(returning: nil)
    }

    /// The next value any subscription received, in order; nil when none is buffered and no
    /// subscription is live.
    func nextNotification() async -> RemoteNotification? {
        if !notifications.isEmpty { return notifications.removeFirst() }
        guard liveSubscriptions > 0 else { return nil }
        return await withCheckedContinuation { notificationWaiter = $0 }
    }

    /// The next range a Service Changed indication covered, once the client has rediscovered it.
    func nextServiceChange() async -> ClosedRange<UInt16>? {
        if !serviceChanges.isEmpty { return serviceChanges.removeFirst() }
        if serviceChangesEnded { return nil }
        return await withCheckedContinuation { serviceChangeWaiter = $0 }
    }

    /// A range from ``GATTClient/serviceChanges``, or nil when that stream ended.
    func changed(_ range: ClosedRange<UInt16>?) {
        if range == nil { serviceChangesEnded = true }
        if let waiter = serviceChangeWaiter {
            serviceChangeWaiter = nil
            waiter.resume(returning: range)
        } else if let range {
            serviceChanges.append(range)
        }
    }

    func remember(_ found: [RemoteService]) -> [RemoteService] {
        for s in found { services[s.handle] = s }
        return found
    }

    func service(_ a: [String], _ i: Int) throws -> RemoteService {
        let h = try handle(a, i)
        guard let s = services[h] else { throw PDUScriptDeviceError("discover the service at \(Self.hex(h)) first") }
        return s
    }

    func handle(_ a: [String], _ i: Int) throws -> UInt16 {
        try ScriptArguments.handle(try ScriptArguments.argument(a, i, "handle"))
    }

    func uuid(_ a: [String], _ i: Int) throws -> BluetoothUUID {
        let text = try ScriptArguments.argument(a, i, "UUID")
        guard let uuid = BluetoothUUID(text) else { throw PDUScriptDeviceError("not a UUID: \(text)") }
        return uuid
    }

    static func hex(_ v: UInt16) -> String { "0x" + Hex.encode([UInt8(v >> 8), UInt8(v & 0xFF)]) }

    static func text(_ services: [RemoteService]) -> String {
        "services " + (services.isEmpty ? "none" : services.map { "\(hex($0.handle))..\(hex($0.endHandle)) \($0.uuid)" }.joined(separator: ", "))
    }

    static func propertyText(_ p: GATTCharacteristicProperties) -> String {
        "0x" + Hex.encode([p.rawValue])
    }

    /// `error 0x0a` for an Error Response, else the client error's description after `failed`.
    static func text(_ error: GATTClientError) -> String {
        if let code = error.attErrorCode { return "error 0x" + Hex.encode([code.rawValue]) }
        return "failed \(error)"
    }
}
