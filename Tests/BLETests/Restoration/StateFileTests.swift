@testable import BLE
import BLECore
import Foundation
import Testing
import VirtualRadio

/// The state file: never trusted blindly (a damaged, foreign or truncated file is set aside and
/// reported), never half-written (a temporary file, synced, then renamed), and a file left by a
/// writer killed before its rename is ignored.
@Suite("State file", .timeLimit(.minutes(1)))
struct StateFileTests {
    /// A central's state as a manager would write it: one peripheral to reconnect, with a
    /// service, a notifying characteristic and its CCCD, and a scan.
    static func sampleState() -> CentralState {
        var characteristic = CharacteristicEntry()
        characteristic.uuid = BluetoothUUID(0x2A37)
        characteristic.handle = 0x0011
        characteristic.valueHandle = 0x0012
        characteristic.endHandle = 0x0013
        characteristic.properties = CharacteristicProperties.notify.rawValue
        characteristic.descriptors = [DescriptorEntry(handle: 0x0013, uuid: BluetoothUUID(0x2902))]
        characteristic.notifying = true
        var service = ServiceEntry()
        service.uuid = BluetoothUUID(0x180D)
        service.handle = 0x0010
        service.endHandle = 0x0013
        service.includes = []
        service.characteristics = [characteristic]
        var entry = PeripheralEntry()
        entry.address = BluetoothAddress("EA:59:24:0E:82:34")!
        entry.addressType = .random
        entry.name = "Sensor"
        entry.connection = .connected
        entry.databaseHash = HexOctets(Array(0..<16))
        entry.services = [service]
        return CentralState(peripherals: [entry], scan: ScanEntry(services: [BluetoothUUID(0x180D)], allowDuplicates: false, solicitedServices: []))
    }

    static func sampleOctets(identifier: String = "gateway") -> [UInt8] {
        StateFile.octets(of: sampleState(), identifier: identifier)
    }

    /// A file that must not be trusted, and how it is told apart.
    enum Untrusted: String, CaseIterable, Sendable, CustomTestStringConvertible {
        case truncated, notJSON, badUUID, badAddress, handlesOutOfOrder, strayMember, otherVersion, otherIdentifier, otherRole, otherProgram

        var testDescription: String { rawValue }

        var octets: [UInt8] {
            let good = StateFileTests.sampleOctets()
            let text = String(decoding: good, as: UTF8.self)
            func replacing(_ old: String, _ new: String) -> [UInt8] {
                precondition(text.contains(old), "the sample holds \(old)")
                return Array(text.replacingOccurrences(of: old, with: new).utf8)
            }
            switch self {
            case .truncated: return Array(good.prefix(good.count / 2))
            case .notJSON: return Array("restore me\n".utf8)
            case .badUUID: return replacing("\"uuid\":\"2A37\"", "\"uuid\":\"2G37\"")
            case .badAddress: return replacing("EA:59:24:0E:82:34", "EA:59:24:0E:82")
            case .handlesOutOfOrder: return replacing("\"valueHandle\":18", "\"valueHandle\":16")
            case .strayMember: return replacing("\"notifying\":true", "\"notifying\":true,\"trusted\":true")
            case .otherVersion: return replacing("\"version\":1", "\"version\":2")
            case .otherIdentifier: return StateFileTests.sampleOctets(identifier: "kiosk")
            case .otherRole:
                return StateFile.octets(of: PeripheralManagerState(), identifier: "gateway")
            case .otherProgram: return Array("{\"peripherals\":[]}".utf8)
            }
        }

        var kind: RestorationProblem.Kind {
            switch self {
            case .truncated, .notJSON, .badUUID, .badAddress, .handlesOutOfOrder, .strayMember: return .damaged
            case .otherVersion, .otherIdentifier, .otherRole, .otherProgram: return .foreign
            }
        }

        /// A word the problem's reason must contain.
        var reasonMentions: String {
            switch self {
            case .truncated, .notJSON: return "not JSON"
            case .badUUID: return "peripherals[0].services[0].characteristics[0].uuid"
            case .badAddress: return "peripherals[0].address"
            case .handlesOutOfOrder: return "valueHandle"
            case .strayMember: return "trusted"
            case .otherVersion: return "version 2"
            case .otherIdentifier: return "kiosk"
            case .otherRole: return "peripheralManager"
            case .otherProgram: return "not a LinuxBLE state file"
            }
        }
    }

    @Test("a damaged, foreign or truncated state file is set aside as .damaged and reported first, and nothing of it is restored", arguments: Untrusted.allCases)
    func untrustedFileSetAside(_ untrusted: Untrusted) async throws {
        let directory = try StateDirectory()
        defer { directory.remove() }
        let name = directory.file("central", "gateway").name
        try directory.put(untrusted.octets, as: name)
        let radio = VirtualRadio(seed: 131, timing: .paced(speed: BLETestbed.defaultSpeed))
        let central = try await BLETestbed.poweredOn(CentralManager(transport: .virtual(radio), options: directory.options("gateway")))
        #expect(!central.isScanning, "no scan resumed")
        await central.close()
        var events: [CentralEvent] = []
        for await event in central.events { events.append(event) }
        guard events.count == 1, case .restorationProblem(let problem) = events[0] else {
            Issue.record("events: \(events)")
            return
        }
        #expect(problem.kind == untrusted.kind)
        #expect(problem.reason.contains(untrusted.reasonMentions), "\(problem)")
        #expect(problem.file.lastPathComponent == name)
        #expect(problem.setAsideAs?.lastPathComponent == name + ".damaged")
        #expect(central.restorationProblems == [problem])
        #expect(directory.names == [name + ".damaged"], "moved, not copied; no state written since")
        #expect(try directory.contents(name + ".damaged") == untrusted.octets, "kept as it was, for a person to read")
        radio.shutDown()
    }

    @Test("the good sample is restored whole: the file's layout reads back what it wrote")
    func sampleRoundTrip() async throws {
        let directory = try StateDirectory()
        defer { directory.remove() }
        let file = directory.file("central", "gateway")
        try file.replace(with: Self.sampleOctets())
        guard case .restored(let state) = file.load(CentralState.self, identifier: "gateway") else {
            Issue.record("the sample does not load")
            return
        }
        #expect(state == Self.sampleState())
        #expect(StateFile.octets(of: state, identifier: "gateway") == Self.sampleOctets(), "encoding again gives the same octets")
    }

    @Test("a writer killed before its rename leaves the old file whole; the temporary file is never read, and left alone while its process lives")
    func killedBeforeRename() async throws {
        let directory = try StateDirectory()
        defer { directory.remove() }
        let file = directory.file("central", "gateway")
        try file.replace(with: Self.sampleOctets())
        var newer = Self.sampleState()
        newer.peripherals[0].connection = .none
        newer.scan = nil
        var temporary: URL?
        try file.replace(with: StateFile.octets(of: newer, identifier: "gateway")) { written in
            temporary = written
            return false   // killed here
        }
        let left = try #require(temporary)
        #expect(directory.names == [left.lastPathComponent, file.name].sorted())
        #expect(try directory.contents(file.name) == Self.sampleOctets(), "the old state, whole")
        #expect(try directory.contents(left.lastPathComponent) == StateFile.octets(of: newer, identifier: "gateway"), "the new one, synced but not renamed")
        guard case .restored(let state) = file.load(CentralState.self, identifier: "gateway") else {
            Issue.record("the old state does not load")
            return
        }
        #expect(state == Self.sampleState())
        #expect(directory.names.contains(left.lastPathComponent), "this process is alive: its temporary file stays")
    }

    @Test("a half-written temporary file of a dead writer is ignored and deleted; the successor restores the file beside it")
    func deadWritersTemporaryIgnored() async throws {
        let directory = try StateDirectory()
        defer { directory.remove() }
        let file = directory.file("central", "gateway")
        try file.replace(with: Self.sampleOctets())
        // Linux PIDs stay below pid_max, at most 2^22 = 4194304: this writer cannot be alive.
        let abandoned = file.temporaryPrefix + "4194305-7"
        try directory.put(Array(Self.sampleOctets().prefix(40)), as: abandoned)
        let radio = VirtualRadio(seed: 132, timing: .paced(speed: BLETestbed.defaultSpeed))
        let central = CentralManager(transport: .virtual(radio), options: directory.options("gateway"))
        var events = central.events.makeAsyncIterator()
        guard case .willRestoreState(let restored) = await events.next() else {
            Issue.record("the first event is not willRestoreState")
            return
        }
        #expect(restored.peripherals.map(\.address) == [BluetoothAddress("EA:59:24:0E:82:34")!])
        #expect(restored.scan?.serviceUUIDs == [BluetoothUUID(0x180D)])
        #expect(!directory.names.contains(abandoned))
        #expect(central.restorationProblems.isEmpty)
        await central.close()
        radio.shutDown()
    }

    @Test("many changes in a row leave exactly one whole, valid file holding the newest state, and no temporary file")
    func rapidWritesLeaveOneWholeFile() async throws {
        let directory = try StateDirectory()
        defer { directory.remove() }
        let radio = VirtualRadio(seed: 133, timing: .paced(speed: BLETestbed.defaultSpeed))
        let central = try await BLETestbed.poweredOn(CentralManager(transport: .virtual(radio), options: directory.options("gateway")))
        #expect(central.restorationStateFile == directory.file("central", "gateway").url)
        let restoration = try #require(central.core.restoration)
        for round in 0..<200 {
            restoration.scan(ScanEntry(services: [BluetoothUUID(UInt16(0x1800 + round))], allowDuplicates: round % 2 == 0, solicitedServices: []))
        }
        await central.stateWritten()
        #expect(directory.names == ["central-gateway.json"])
        guard case .restored(let state) = directory.file("central", "gateway").load(CentralState.self, identifier: "gateway") else {
            Issue.record("the written state does not load")
            return
        }
        #expect(state.scan == ScanEntry(services: [BluetoothUUID(0x18C7)], allowDuplicates: false, solicitedServices: []), "the newest state")
        await central.close()
        radio.shutDown()
    }

    @Test("a state directory that cannot be made is reported as unwritable; the manager works on")
    func unwritableDirectory() async throws {
        let directory = try StateDirectory()
        defer { directory.remove() }
        try directory.put([], as: "blocked")
        let options = ManagerOptions(restoreIdentifier: "gateway", stateDirectory: directory.url.appendingPathComponent("blocked/state"))
        let radio = VirtualRadio(seed: 134, timing: .paced(speed: BLETestbed.defaultSpeed))
        let central = try await BLETestbed.poweredOn(CentralManager(transport: .virtual(radio), options: options))
        var events = central.events.makeAsyncIterator()
        let scan = central.scanForPeripherals(withServices: nil)
        guard case .restorationProblem(let problem) = await events.next() else {
            Issue.record("no problem reported")
            return
        }
        #expect(problem.kind == .unwritable)
        #expect(problem.setAsideAs == nil)
        #expect(central.isScanning)
        withExtendedLifetime(scan) {}
        await central.close()
        radio.shutDown()
    }

    @Test("docs/state-restoration.md's example files are valid state files of their roles")
    func documentedExamplesLoad() throws {
        let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let text = try String(contentsOf: repository.appendingPathComponent("docs/state-restoration.md"), encoding: .utf8)
        var examples: [String: String] = [:]
        for block in text.components(separatedBy: "<!-- state-file-example: ").dropFirst() {
            let role = String(block.prefix { $0 != " " })
            guard let start = block.range(of: "```json\n"), let end = block.range(of: "\n```", range: start.upperBound..<block.endIndex) else { continue }
            examples[role] = String(block[start.upperBound..<end.lowerBound])
        }
        #expect(Set(examples.keys) == ["central", "peripheralManager"])
        let directory = try StateDirectory()
        defer { directory.remove() }
        try directory.put(Array((examples["central"] ?? "").utf8), as: directory.file("central", "gateway").name)
        guard case .restored(let central) = directory.file("central", "gateway").load(CentralState.self, identifier: "gateway") else {
            Issue.record("the central example does not load: \(directory.names)")
            return
        }
        #expect(central == Self.sampleState())
        try directory.put(Array((examples["peripheralManager"] ?? "").utf8), as: directory.file("peripheralManager", "sensor").name)
        guard case .restored(let manager) = directory.file("peripheralManager", "sensor").load(PeripheralManagerState.self, identifier: "sensor") else {
            Issue.record("the peripheral manager example does not load: \(directory.names)")
            return
        }
        #expect(manager.advertising && manager.services.first?.characteristics.first?.value == HexOctets([0x64]))
    }

    @Test("identifiers are escaped into file names: any identifier names one file, and never a hidden or relative one")
    func fileNames() {
        #expect(StateFile.escape("gateway") == "gateway")
        #expect(StateFile.escape("../etc/passwd") == "%2E.%2Fetc%2Fpasswd")
        #expect(StateFile.escape("a b%") == "a%20b%25")
        #expect(StateFile.escape("café") == "caf%C3%A9")
        #expect(StateFile(directory: URL(fileURLWithPath: "/s"), role: "central", identifier: "x/y").url.path == "/s/central-x%2Fy.json")
    }
}
