import ATT
import BLECore
import FuzzSupport
import GATT

/// The GATT server's request handler with a database from Fixtures/gatt-databases loaded, fed
/// PDUs by a client on an in-memory bearer (Core v5.4, Vol 3, Part F, 3.3-3.4; Part G):
///
/// - every request, and every undefined opcode without the Command Flag, gets exactly one answer,
///   a PDU that decodes, fits the ATT_MTU, and is the request's response or an Error Response
///   naming it (never Unlikely Error, the server's "cannot happen"); an indication gets a
///   confirmation;
/// - commands, notifications, responses and confirmations get no answer (a final request
///   fences the stream: its answer must be the next PDU);
/// - the prepare queue stays within its limit;
/// - when the client's end closes, the server's engine ends, and once the harness lets go of
///   the server, the server and the engine are freed (no reference cycle keeps them).
///
/// Input: the database (one octet, an index into the fixtures in name order), the link's
/// security (one octet: none, encrypted with a 7-octet key, or authenticated and authorized with
/// a 16-octet key), whether the peer is bonded (one octet, bit 0), then PDUs, each a length
/// octet and that many octets.
enum GATTServerHarness {
    /// The fixtures that load without value handlers, loaded once.
    static let databases: [GATTDatabase] = FuzzFixtures.files(in: "gatt-databases", suffix: ".json").compactMap {
        try? GATTDatabase(jsonFile: $0)
    }
    static let securities: [ATTSecurity] = [.none, ATTSecurity(isEncrypted: true, encryptionKeySize: 7),
                                            ATTSecurity(isEncrypted: true, isAuthenticated: true, isAuthorized: true, encryptionKeySize: 16)]
    /// Wall-clock bound on the server's engine ending after the client's end closed, in seconds
    /// (it takes microseconds; the bound is for a loaded machine).
    static let endBound = 5.0
    /// A Read Request for handle 0x0001: the fence after the last PDU.
    static let fence: [UInt8] = [0x0A, 0x01, 0x00]

    static func test(_ bytes: [UInt8]) {
        FuzzProperty.require(!databases.isEmpty, "no database loaded from \(FuzzFixtures.root)/gatt-databases")
        var input = FuzzInput(bytes)
        let database = databases[input.choice(databases.count)]
        let security = securities[input.choice(securities.count)]
        let bonded = input.uint8() & 1 == 1
        var pdus: [[UInt8]] = []
        while !input.isAtEnd { pdus.append(input.lengthPrefixed()) }
        let script = pdus
        FuzzAsync.run {
            let (server, engine) = await run(database: database, security: security, bonded: bonded, pdus: script)
            await FuzzAsync.expectReleased("the server or its engine") { server.value == nil && engine.value == nil }
        }
    }

    /// Runs the input; returns the server and its engine, weakly held, for the leak check.
    static func run(database: GATTDatabase, security: ATTSecurity, bonded: Bool,
                    pdus: [[UInt8]]) async -> (server: Weak<GATTServer>, engine: Weak<ATTEngine>) {
        let server: GATTServer
        do { server = try GATTServer(database: database) } catch { FuzzProperty.fail("the fixture database is refused: \(error)") }
        let limit = server.configuration.prepareQueueLimit
        let (client, serverEnd) = InMemoryATTBearer.pair(maximumMTU: (517, 517), security: (security, security))
        let connection = await server.connect(serverEnd, options: GATTConnectionOptions(isBonded: bonded))
        var answers = client.received.makeAsyncIterator()
        for pdu in pdus + [fence] {
            guard let first = pdu.first else { continue }   // an empty PDU has no opcode to answer
            do { try client.sendNow(pdu) } catch { FuzzProperty.fail("the bearer closed under the server: \(Hex.encode(pdu))") }
            let opcode = ATTOpcode(rawValue: first)
            switch opcode.kind {
            case .request, .unknown:
                guard let answer = await nextAnswer(&answers) else { FuzzProperty.fail("the server ended instead of answering \(Hex.encode(pdu))") }
                await check(answer, answers: pdu, opcode: opcode, mtu: connection.mtu)
            case .indication:
                guard let answer = await nextAnswer(&answers) else { FuzzProperty.fail("the server ended instead of confirming \(Hex.encode(pdu))") }
                FuzzProperty.require(answer == [0x1E], "indication \(Hex.encode(pdu)) answered \(Hex.encode(answer))")
            case .command, .notification, .response, .confirmation:
                break
            }
            let queued = await connection.preparedWrites
            FuzzProperty.require(queued.entries <= limit.maximumEntries && queued.octets <= limit.maximumOctets,
                                 "prepare queue \(queued) over its limit \(limit)")
        }
        client.closeNow()
        await FuzzAsync.within(endBound, "the server's engine after the client's end closed") {
            await connection.engine.waitUntilClosed()
        }
        return (Weak(server), Weak(connection.engine))
    }

    /// The next PDU from the server that is not a notification or an indication (which may come
    /// at any time); nil when the bearer ended. A server that never answers is a hang, which
    /// libFuzzer's -timeout reports with the input.
    static func nextAnswer(_ answers: inout AsyncStream<[UInt8]>.Iterator) async -> [UInt8]? {
        while let octets = await answers.next() {
            guard let first = octets.first else { return octets }
            let kind = ATTOpcode(rawValue: first).kind
            if kind != .notification && kind != .indication { return octets }
        }
        return nil
    }

    /// The server's answer to `request` (opcode `opcode`) is a valid response to it.
    static func check(_ answer: [UInt8], answers request: [UInt8], opcode: ATTOpcode, mtu: Int) async {
        let context = "\(Hex.encode(request)) answered \(Hex.encode(answer))"
        FuzzProperty.require(answer.count <= mtu, "\(context): longer than ATT_MTU \(mtu)")
        let response: ATTPDU
        do { response = try ATTPDU.decode(answer) } catch { FuzzProperty.fail("\(context): does not decode: \(error)") }
        if case .errorResponse(let error) = response {
            FuzzProperty.require(error.requestOpcodeInError == opcode, "\(context): an Error Response for another request")
            FuzzProperty.require(error.errorCode != .unlikelyError, "\(context): Unlikely Error")
        } else {
            FuzzProperty.require(response.opcode.answeredRequest == opcode, "\(context): not its response")
        }
    }
}

@_cdecl("FuzzGATTServer_main")
func fuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> Int32 {
    runFuzzer(argc, argv) { data, size in
        GATTServerHarness.test(FuzzInput.octets(data, size))
        return 0
    }
}
