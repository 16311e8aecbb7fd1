import BLE
import Testing

/// `Transport(_:)` reads the words of blectl's `--transport`, and a transport prints back as
/// the word that names it.
@Suite("Transport words")
struct TransportTests {
    @Test("each --transport word gives its transport, with the defaults filled in")
    func parsesEveryForm() throws {
        #expect(try Transport("kernel:hci1") == .kernel(hci: 1))
        #expect(try Transport("kernel:3") == .kernel(hci: 3))
        #expect(try Transport("user:hci0") == .userChannel(hci: 0))
        #expect(try Transport("user:2") == .userChannel(hci: 2))
        #expect(try Transport("h4:/dev/ttyACM0") == .serial(path: "/dev/ttyACM0", baudRate: 1_000_000, flowControl: .none))
        #expect(try Transport("h4:/dev/ttyUSB1@115200,rtscts") == .serial(path: "/dev/ttyUSB1", baudRate: 115_200, flowControl: .rtsCts))
        #expect(try Transport("h4:/dev/ttyS0,rtscts") == .serial(path: "/dev/ttyS0", baudRate: 1_000_000, flowControl: .rtsCts))
        #expect(try Transport("tcp:127.0.0.1:9001") == .tcp(host: "127.0.0.1", port: 9001))
        #expect(try Transport("tcp:[::1]:9001") == .tcp(host: "::1", port: 9001))
        guard case .virtual = try Transport("virtual") else {
            Issue.record("'virtual' is not a virtual transport")
            return
        }
    }

    @Test("a word that is not a transport is refused, naming every form and the word")
    func refusesOtherWords() {
        for bad in ["usb:1", "kernel:hciX", "kernel:hci65535", "user:", "h4:ttyS0", "h4:/dev/ttyS0@fast", "h4:/dev/ttyS0,xonxoff",
                    "tcp:127.0.0.1", "tcp:host:0", "tcp::80", "tcp:host:65536", "Virtual", ""] {
            let error = #expect(throws: BLEError.self, "'\(bad)'") { try Transport(bad) }
            guard case .invalidArgument(let message) = error else {
                Issue.record("'\(bad)': \(String(describing: error))")
                continue
            }
            #expect(message.contains(Transport.forms), "'\(bad)': \(message)")
            #expect(message.contains("'\(bad)'"), "'\(bad)': \(message)")
        }
    }

    @Test("a transport prints as the word that names it, and that word parses back to it")
    func roundTrips() throws {
        let transports: [Transport] = [.kernel(hci: 0), .userChannel(hci: 7), .serial(path: "/dev/ttyACM0"),
                                       .serial(path: "/dev/ttyUSB0", baudRate: 921_600, flowControl: .rtsCts),
                                       .tcp(host: "10.0.0.2", port: 9000), .tcp(host: "::1", port: 1)]
        for transport in transports {
            #expect(try Transport(transport.description) == transport, "\(transport)")
        }
        #expect(Transport.serial(path: "/dev/ttyACM0").description == "h4:/dev/ttyACM0@1000000")
        #expect(Transport.tcp(host: "::1", port: 1).description == "tcp:[::1]:1")
    }

    @Test("import BLE alone gives BluetoothUUID, BluetoothAddress and VirtualRadio")
    func reexports() {
        #expect(BluetoothUUID("180D") == BluetoothUUID(0x180D))
        #expect(BluetoothAddress("C0:FF:EE:00:00:01")?.description == "C0:FF:EE:00:00:01")
        #expect(VirtualRadio(timing: .manual).now == .zero)
    }

    @Test("only kernel mode leaves the controller to the kernel; two virtual transports are equal only on one radio")
    func modesAndRadios() {
        let radio = VirtualRadio(timing: .manual)
        #expect(!Transport.kernel(hci: 0).isHostMode)
        #expect(Transport.userChannel(hci: 0).isHostMode)
        #expect(Transport.virtual(radio).isHostMode)
        #expect(Transport.virtual(radio) == .virtual(radio))
        #expect(Transport.virtual(radio) != .virtual(VirtualRadio(timing: .manual)))
        #expect(Transport.adapterIndex("hci12") == 12)
        #expect(Transport.adapterIndex("65535") == nil)
    }
}

/// A manager on `.virtual(radio)` takes its controller's seeded static random address.
@Suite("Seeded virtual addresses", .timeLimit(.minutes(1)))
struct SeededVirtualAddressTests {
    /// The address the testbed's sensor sees its central connect from.
    static func centralAddress(seed: UInt64) async throws -> BluetoothAddress {
        let testbed = try await BLETestbed.make(seed: seed)
        let address = try await testbed.connect().link.peerAddress
        await testbed.shutDown()
        return address
    }

    @Test("a central on .virtual connects from the same static random address in runs with the same radio seed, from another with another seed")
    func sameSeedSameAddress() async throws {
        let first = try await Self.centralAddress(seed: 61)
        #expect(first.isValidStaticRandom)
        #expect(try await Self.centralAddress(seed: 61) == first)
        #expect(try await Self.centralAddress(seed: 62) != first)
    }
}
