import ATT
import BLECore
import FuzzSupport
import GATT

/// The GATT client fed fuzzed server responses, one procedure per input
/// (``GATTClientProcedure``), on an in-memory bearer whose other end is a scripted server:
///
/// - each request the client sends is answered with the input's next group of PDUs (up to three:
///   notifications, indications, requests of the server's own, and at most one PDU of the
///   response type, which ends the transaction whatever it holds); a group without one leaves the
///   request unanswered, and the harness runs the 30 s transaction timeout out on a test clock;
///   when the groups run out, the server's end closes (the link drops);
/// - what the client sends always decodes, fits the ATT_MTU, is never a second request while
///   one is outstanding, and no request follows a transaction timeout (Part F, 3.3.3; a
///   confirmation sent before the timeout may still be on its way);
/// - the procedure always ends, and a subscription's notifications end, once the bearer has
///   ended; results keep the client's promises (handles inside the ranges asked for).
///
/// Input: the procedure (one octet), its arguments (``GATTClientProcedure/Arguments``), then
/// groups: a count octet (low two bits) and that many PDUs, each a length octet and its octets.
enum GATTClientHarness {
    /// Wall-clock bound on the procedure and the drain of a subscription, in seconds: they take
    /// milliseconds; the bound is for a loaded machine.
    static let bound = 10.0

    static func test(_ bytes: [UInt8]) {
        var input = FuzzInput(bytes)
        let procedure = GATTClientProcedure.allCases[input.choice(GATTClientProcedure.allCases.count)]
        let arguments = GATTClientProcedure.Arguments(&input)
        var groups: [[[UInt8]]] = []
        while !input.isAtEnd {
            var group: [[UInt8]] = []
            for _ in 0..<(input.uint8() & 0x03) {
                let pdu = input.lengthPrefixed()
                group.append(pdu)
                if let first = pdu.first, ATTOpcode(rawValue: first).kind == .response { break }
            }
            groups.append(group)
        }
        let script = groups
        FuzzAsync.run { await run(procedure, arguments, groups: script) }
    }

    static func run(_ procedure: GATTClientProcedure, _ arguments: GATTClientProcedure.Arguments, groups: [[[UInt8]]]) async {
        let clock = TestClock()
        let (clientEnd, serverEnd) = InMemoryATTBearer.pair(maximumMTU: (517, 517))
        let engine = ATTEngine(bearer: clientEnd, clock: clock, transactionTimeout: .seconds(30))
        let client = GATTClient(engine: engine)
        let server = Task { await serve(serverEnd, groups: groups, clock: clock, engine: engine) }
        let name = "\(procedure)"
        let subscription = await FuzzAsync.within(bound, "the client's \(name)") {
            await procedure.run(on: client, arguments)
        }
        if let subscription {
            // The link drops; the notifications must end.
            serverEnd.closeNow()
            let valueHandle = arguments.characteristic.valueHandle
            await FuzzAsync.within(bound, "the notifications of \(name) after the bearer closed") {
                for await notification in subscription {
                    FuzzProperty.require(notification.handle == valueHandle, "a notification of \(notification.handle) on the subscription to \(valueHandle)")
                }
            }
        }
        await client.close()
        serverEnd.closeNow()
        await FuzzAsync.within(bound, "the scripted server after the client closed") { await server.value }
    }

    /// The scripted server: answers each request with the next group, checking what the client sends.
    static func serve(_ end: InMemoryATTBearer, groups: [[[UInt8]]], clock: TestClock, engine: ATTEngine) async {
        var next = 0
        var outstanding = false
        var timedOut = false
        for await octets in end.received {
            let context = "the client sent \(Hex.encode(octets))"
            let pdu: ATTPDU
            do { pdu = try ATTPDU.decode(octets) } catch { FuzzProperty.fail("\(context), which does not decode: \(error)") }
            let mtu = await engine.mtu
            FuzzProperty.require(octets.count <= mtu, "\(context), longer than ATT_MTU \(mtu)")
            switch pdu.kind {
            case .request:
                FuzzProperty.require(!timedOut, "\(context) after a transaction timeout")
                FuzzProperty.require(!outstanding, "\(context) while a request was outstanding")
                guard next < groups.count else {
                    end.closeNow()
                    return
                }
                let group = groups[next]
                next += 1
                for reply in group { try? end.sendNow(reply) }
                if group.contains(where: { $0.first.map { ATTOpcode(rawValue: $0).kind == .response } ?? false }) {
                    continue
                }
                // Unanswered: the request's timer runs out.
                outstanding = true
                await clock.waitForSleepers(1)
                clock.advance(by: .seconds(30))
                timedOut = true
                outstanding = false
            case .command, .confirmation, .response:
                break   // responses: the client's engine refusing the server's own requests
            case .notification, .indication, .unknown:
                FuzzProperty.fail("\(context), which a client never sends")
            }
        }
    }
}

@_cdecl("FuzzGATTClient_main")
func fuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> Int32 {
    runFuzzer(argc, argv) { data, size in
        GATTClientHarness.test(FuzzInput.octets(data, size))
        return 0
    }
}
