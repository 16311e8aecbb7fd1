import Testing
import BLECore
import Synchronization
@testable import ATT
@testable import GATT
import BLETestSupport

/// The optional steps of whole-database discovery are best effort (Core v5.4, Vol 3, Part G,
/// 2.5.2, 7.1-7.3): each of the Database Hash read, the Client Supported Features write and the
/// Service Changed CCCD write, answered badly in each way a server can, gives a diagnostic,
/// switches off what it served, and the discovery still returns the whole tree. Against
/// ClientTables.standard (Service Changed CCCD 0x0009, Client Supported Features 0x000b,
/// Database Hash 0x000d).
@Suite("GATT client: optional steps are best effort")
struct ClientOptionalStepTests {
    /// An optional step, by the request that carries it.
    enum Step: String, CaseIterable, Sendable, CustomTestStringConvertible {
        case databaseHash, clientSupportedFeatures, serviceChanged

        var testDescription: String { rawValue }

        func matches(_ pdu: ATTPDU) -> Bool {
            switch (self, pdu) {
            case (.databaseHash, .readByTypeRequest(let r)): return r.attributeType == GATTProfileUUID.databaseHash
            case (.clientSupportedFeatures, .writeRequest(let w)): return w.handle == 0x000B
            case (.serviceChanged, .writeRequest(let w)): return w.handle == 0x0009
            default: return false
            }
        }

        var diagnosticStep: GATTClientDiagnostic.Step {
            switch self {
            case .databaseHash: return .databaseHashRead
            case .clientSupportedFeatures: return .clientSupportedFeaturesWrite
            case .serviceChanged: return .serviceChangedIndications
            }
        }

        var consequence: GATTClientDiagnostic.Consequence {
            switch self {
            case .databaseHash: return .robustCachingOff
            case .clientSupportedFeatures: return .clientSupportedFeaturesNotWritten
            case .serviceChanged: return .serviceChangedIndicationsOff
            }
        }

        /// The request's opcode and handle, as an ATT_ERROR_RSP names them.
        var request: (opcode: ATTOpcode, handle: UInt16) {
            switch self {
            case .databaseHash: return (.readByTypeRequest, 0x0001)
            case .clientSupportedFeatures: return (.writeRequest, 0x000B)
            case .serviceChanged: return (.writeRequest, 0x0009)
            }
        }
    }

    /// A kind of bad answer.
    enum Bad: String, CaseIterable, Sendable, CustomTestStringConvertible {
        /// ATT_ERROR_RSP: Read Not Permitted (a read) or Write Not Permitted (a write).
        case errorResponse
        /// A PDU of the right opcode that does not decode.
        case malformedPDU
        /// A response of another opcode (a Read Response).
        case wrongResponse
        /// No answer: the transaction times out after 30 s.
        case timeout

        var testDescription: String { rawValue }
    }

    /// The octets a server sends for `bad` to `step`, or nil for silence.
    static func answer(_ bad: Bad, to step: Step) -> [UInt8]? {
        let (opcode, handle) = step.request
        switch bad {
        case .errorResponse:
            let code: UInt8 = opcode == .readByTypeRequest ? 0x02 : 0x03
            return [0x01, opcode.rawValue, UInt8(handle & 0xFF), UInt8(handle >> 8), code]
        case .malformedPDU:
            // Read By Type Response, Length 18, 2 octets of one entry; a Write Response with a trailing octet.
            return opcode == .readByTypeRequest ? [0x09, 0x12, 0x0D, 0x00, 0x10, 0x11] : [0x13, 0x00]
        case .wrongResponse:
            return [0x0B, 0x00]
        case .timeout:
            return nil
        }
    }

    /// The tree and requests of a discovery on a server that answers everything well.
    static func baseline() async throws -> [RemoteService] {
        let (table, _) = ClientTables.standard()
        let rig = ClientRig(table)
        let services = try await rig.client.discoverDatabase()
        #expect(await rig.client.diagnostics.isEmpty)
        await rig.close()
        return services
    }

    /// A rig whose server answers `step` with `answer` (or nothing), everything else well;
    /// `bent` is set once the step's request has arrived.
    static func rig(bending step: Step, with answer: [UInt8]?, cache: InMemoryGATTClientCache, bent: SeenFlag? = nil,
                    table: FakeGATTTable = ClientTables.standard().0) -> BentRig {
        let peer = GATTPeerIdentity("optional-step peer")
        return BentRig(table, configuration: .init(cache: cache, peer: peer)) { pdu in
            guard step.matches(pdu) else { return .normal }
            bent?.set()
            return answer.map { .raw($0) } ?? .silence
        }
    }

    @Test("each optional step, answered badly, gives a diagnostic, switches off what it served and the tree is whole",
          arguments: Step.allCases, [Bad.errorResponse, .malformedPDU, .wrongResponse])
    func badAnswer(_ step: Step, _ bad: Bad) async throws {
        let expected = try await Self.baseline()
        let cache = InMemoryGATTClientCache()
        let rig = Self.rig(bending: step, with: Self.answer(bad, to: step), cache: cache)
        let services = try await rig.client.discoverDatabase()
        #expect(services == expected)

        let diagnostics = await rig.client.diagnostics
        try #require(diagnostics.count == 1, "\(diagnostics)")
        #expect(diagnostics[0].step == step.diagnosticStep)
        #expect(diagnostics[0].consequence == step.consequence)
        guard case .failed(let failure) = diagnostics[0].problem else {
            Issue.record("not a failure: \(diagnostics[0])")
            return
        }
        switch bad {
        case .errorResponse: #expect(failure.attErrorCode == (step == .databaseHash ? .readNotPermitted : .writeNotPermitted))
        case .malformedPDU:
            let decoding = try #require(throws: ATTDecodingError.self) { try ATTPDU.decode(Self.answer(bad, to: step)!) }
            #expect(failure == .protocolViolation(.malformedResponse(decoding)))
        case .wrongResponse: #expect(failure == .protocolViolation(.unexpectedResponse(.readResponse(ATTReadResponse(value: [0x00])))))
        case .timeout: break
        }
        #expect(diagnostics[0].description.hasPrefix(step.diagnosticStep.description + ": "))

        // What the step served is off: caching without a usable hash; the other steps are not retried.
        #expect(await rig.client.isRobustCachingOff == (step == .databaseHash))
        #expect(cache.count == (step == .databaseHash ? 0 : 1))
        let before = rig.server.fake.received.filter(step.matches).count
        _ = try await rig.client.discoverDatabase()
        let after = rig.server.fake.received.filter(step.matches).count
        #expect(after == before, "the switched-off step is not tried again on this connection")
        #expect(await rig.client.diagnostics.count == 1)
        await rig.close()
    }

    @Test("an optional step that times out ends the bearer: a diagnostic names it, and the procedure fails",
          arguments: Step.allCases)
    func timeout(_ step: Step) async throws {
        let bent = SeenFlag()
        let rig = Self.rig(bending: step, with: nil, cache: InMemoryGATTClientCache(), bent: bent)
        let discovery = Task { try await rig.client.discoverDatabase() }
        #expect(await eventually { bent.isSet })
        // Only the silent request can be pending now: each 30 s step fires its timer once armed.
        #expect(await eventually {
            rig.clock.advance(by: .seconds(30))
            return await rig.client.engine.didTimeOut
        })
        await #expect(throws: GATTClientError.timeout) { try await discovery.value }
        #expect(await rig.client.diagnostics == [GATTClientDiagnostic(step: step.diagnosticStep, problem: .failed(.timeout),
                                                                      consequence: .bearerEnded)])
        await rig.close()
    }

    @Test("a server answering every Read By Type with its characteristic declaration: the tree, with what was worked around")
    func oneDeclarationForEveryType() async throws {
        // 0x0001 Primary Service 180F, 0x0002 Characteristic (Read, 0x0003, 2A19), 0x0003 value 64.
        var table = FakeGATTTable()
        table.primaryService(BluetoothUUID(0x180F))
        table.characteristic(BluetoothUUID(0x2A19), properties: 0x02, value: [0x64])
        let declaration: [UInt8] = [0x09, 0x07, 0x02, 0x00, 0x02, 0x03, 0x00, 0x19, 0x2A]
        let rig = BentRig(table, configuration: .init(cache: InMemoryGATTClientCache(), peer: GATTPeerIdentity("C server"))) { pdu in
            guard case .readByTypeRequest(let r) = pdu else { return .normal }
            return r.startingHandle <= 0x0002 ? .raw(declaration) : .normal
        }
        let services = try await rig.client.discoverDatabase()
        #expect(services.map(\.uuid) == [BluetoothUUID(0x180F)])
        #expect(services[0].characteristics.map(\.valueHandle) == [0x0003])
        #expect(services[0].includedServices.isEmpty)
        let text = await rig.client.diagnostics.map(\.description)
        #expect(text == [
            "Database Hash read (Core v5.4, Vol 3, Part G, 7.3): protocol violation: malformed value at handle 0x0002: "
                + "Database Hash at offset 0 needs 16 octets, 5 available; robust caching is off for this connection; "
                + "the database is discovered in full",
            "finding the included services of the service at 0x0001 (Core v5.4, Vol 3, Part G, 4.5.1): protocol violation: "
                + "malformed value at handle 0x0002: Service UUID at offset 4 needs 2 octets, 1 available; "
                + "the service is taken to include no service",
        ])
        #expect(await rig.client.databaseHash == nil)
        await rig.close()
    }

    @Test("a well-formed hash listed at a handle that is no Database Hash: caching off, and a cached tree is not trusted")
    func hashOfAnotherType() async throws {
        let cache = InMemoryGATTClientCache()
        let peer = GATTPeerIdentity("optional-step peer")
        let expected = try await Self.baseline()
        await cache.store(GATTClientCacheEntry(databaseHash: ClientTables.hashA, services: expected), for: peer)
        // 0x0005 is the Appearance value: the server answers the hash read with it, padded to 16 octets.
        let wrong = [0x09, 0x12, 0x05, 0x00] + ClientTables.hashA
        let rig = Self.rig(bending: .databaseHash, with: wrong, cache: cache)
        let services = try await rig.client.discoverDatabase()
        #expect(services == expected)
        #expect(await rig.client.usedCachedDatabase == false, "the cache entry's hash matched, but not at its Database Hash")
        #expect(await rig.client.diagnostics == [GATTClientDiagnostic(step: .databaseHashRead, problem: .notADatabaseHash(handle: 0x0005),
                                                                      consequence: .robustCachingOff)])
        #expect(await rig.client.databaseHash == nil)

        // Without a cache entry the tree itself shows it.
        let fresh = Self.rig(bending: .databaseHash, with: wrong, cache: InMemoryGATTClientCache())
        _ = try await fresh.client.discoverDatabase()
        #expect(await fresh.client.diagnostics.map(\.problem) == [.notADatabaseHash(handle: 0x0005)])
        await rig.close()
        await fresh.close()
    }

    @Test("Service Changed without a CCCD: a diagnostic, indications off, the discovery goes on")
    func serviceChangedWithoutConfiguration() async throws {
        var table = FakeGATTTable()
        table.primaryService(BluetoothUUID(0x1801))
        let changed = table.characteristic(BluetoothUUID(0x2A05), properties: 0x20, value: [0, 0, 0, 0]).value
        table.characteristic(BluetoothUUID(0x2B29), properties: 0x0A, value: [0x00])
        let rig = ClientRig(table)
        let services = try await rig.client.discoverDatabase()
        #expect(services.count == 1)
        #expect(await rig.client.diagnostics == [GATTClientDiagnostic(step: .serviceChangedIndications,
                                                                      problem: .noServiceChangedConfiguration(valueHandle: changed),
                                                                      consequence: .serviceChangedIndicationsOff)])
        #expect(await rig.client.wroteClientSupportedFeatures)
        await rig.close()
    }

    @Test("a bonded peer whose optional step failed is not recorded as configured, so the next bond writes again")
    func bondNotConfiguredAfterFailure() async throws {
        let cache = InMemoryGATTClientCache()
        let peer = GATTPeerIdentity("bonded")
        let (table, h) = ClientTables.standard()
        let rig = ClientRig(table, configuration: .init(cache: cache, peer: peer, hasTrustedRelationship: true))
        rig.server.fail(.writeRequest, handle: h.serviceChangedCCCD, code: .writeNotPermitted)
        _ = try await rig.client.discoverDatabase()
        #expect(await cache.entry(for: peer)?.configuredForBond == false)
        await rig.close()
    }

    @Test("with robust caching off, Database Out Of Sync rediscovers without reading the hash, then repeats the request")
    func outOfSyncWithCachingOff() async throws {
        let cache = InMemoryGATTClientCache()
        let rig = Self.rig(bending: .databaseHash, with: Self.answer(.errorResponse, to: .databaseHash), cache: cache)
        _ = try await rig.client.discoverDatabase()
        let hashReads = rig.server.fake.received.filter(Step.databaseHash.matches).count
        rig.server.fake.fail(.readRequest, handle: 0x0003, code: .databaseOutOfSync)
        let name = try await rig.client.read(0x0003)
        #expect(name == Array("LinuxBLE".utf8))
        #expect(rig.server.fake.received.filter(Step.databaseHash.matches).count == hashReads)
        #expect(rig.server.fake.count(.readByGroupTypeRequest) >= 4, "discovered twice")
        await rig.close()
    }
}

/// Set once something was seen, from any task.
final class SeenFlag: Sendable {
    private let seen = Mutex(false)

    /// Marks it seen.
    func set() { seen.withLock { $0 = true } }

    /// Whether it was seen.
    var isSet: Bool { seen.withLock { $0 } }
}
