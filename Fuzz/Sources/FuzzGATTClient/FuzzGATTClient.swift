import ATT
import BLECore
import FuzzSupport
import GATT
import Synchronization

/// Where the scripted server stands, for the message of a hang.
final class ScriptProgress: Sendable {
    private let state = Mutex("not started")
    var text: String { state.withLock { $0 } }
    func set(_ text: String) { state.withLock { $0 = text } }
}

/// The GATT client fed fuzzed server responses, one procedure per input
/// (``GATTClientProcedure``), on an in-memory bearer whose other end is a scripted server:
///
/// - each request the client sends is answered with the input's next group of PDUs (up to three:
///   notifications, indications, requests of the server's own, and at most one PDU of the
///   response type, which ends the transaction whatever it holds); a group without one leaves the
///   request unanswered, and the harness runs the 30 s transaction timeout out on a test clock
///   (moving it until the engine has timed out);
///   when the groups run out, the server's end closes (the link drops);
/// - what the client sends always decodes, fits the ATT_MTU, is never a second request while
///   one is outstanding, and no request follows a transaction timeout (Part F, 3.3.3; a
///   confirmation sent before the timeout may still be on its way);
/// - the procedure always ends, and a subscription's notifications end, once the bearer has
///   ended; results keep the client's promises (handles inside the ranges asked for);
/// - once closed and let go, the client and its engine are freed.
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
        FuzzAsync.run {
            let (client, engine) = await run(procedure, arguments, groups: script)
            await FuzzAsync.expectReleased("the client or its engine after \(procedure)") { client.value == nil && engine.value == nil }
        }
    }

    /// Runs the input; returns the client and its engine, weakly held, for the leak check.
    static func run(_ procedure: GATTClientProcedure, _ arguments: GATTClientProcedure.Arguments,
                    groups: [[[UInt8]]]) async -> (client: Weak<GATTClient>, engine: Weak<ATTEngine>) {
        let clock = TestClock()
        let (clientEnd, serverEnd) = InMemoryATTBearer.pair(maximumMTU: (517, 517))
        let engine = ATTEngine(bearer: clientEnd, clock: clock, transactionTimeout: .seconds(30))
        let client = GATTClient(engine: engine)
        let progress = ScriptProgress()
        let server = Task { await serve(serverEnd, groups: groups, clock: clock, engine: engine, progress: progress) }
        let name = "\(procedure)"
        let subscription = await FuzzAsync.within(bound, "the client's \(name) (the scripted server: \(progress.text))") {
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
        return (Weak(client), Weak(engine))
    }

    /// The scripted server: answers each request with the next group, checking what the client sends.
    static func serve(_ end: InMemoryATTBearer, groups: [[[UInt8]]], clock: TestClock, engine: ATTEngine,
                      progress: ScriptProgress) async {
        var next = 0
        var outstanding = false
        var timedOut = false
        for await octets in end.received {
            let context = "the client sent \(Hex.encode(octets))"
            let pdu: ATTPDU
            do { pdu = try ATTPDU.decode(octets) } catch { FuzzProperty.fail("\(context), which does not decode: \(error)") }
            let mtu = engine.mtu
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
                progress.set("answering request \(next) of \(groups.count), \(Hex.encode(octets)), with \(group.map { Hex.encode($0) })")
                for reply in group { try? end.sendNow(reply) }
                if group.contains(where: { $0.first.map { ATTOpcode(rawValue: $0).kind == .response } ?? false }) {
                    continue
                }
                // Unanswered: the request's timer runs out.
                outstanding = true
                // The engine arms the timer after the send returns, which can be after this
                // point; a timer task left from an earlier request may be asleep already. So
                // time moves on 30 s at a time until the engine has timed out.
                progress.set("waiting for the timer of request \(next), \(Hex.encode(octets))")
                // (The client may also be closed meanwhile, when the request was a background
                // one, such as a rediscovery after Service Changed, and the procedure ended.)
                while !(await engine.didTimeOut), !(await engine.isShutDown) {
                    if clock.sleeperCount > 0 { clock.advance(by: .seconds(30)) }
                    try? await Task.sleep(for: .microseconds(50))
                }
                progress.set("timed out request \(next), \(Hex.encode(octets))")
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
