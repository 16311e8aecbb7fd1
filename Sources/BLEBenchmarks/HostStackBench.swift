import ATT
import BLECore
import Foundation
import GATT
import HCI
import Host
import LinuxBluetooth
import VirtualRadio

/// The host-stack rows of `make bench`: ATT round trips and notifications through a whole host
/// stack on the virtual radio, for our client and for Google Bumble's, against the same peer
/// over the same transport.
///
/// The rig, the same for both clients: a ``VirtualRadio`` in paced timing at ``speed``; the
/// peripheral is our stack (``HostStack``, ``GATTServer`` on Fixtures/gatt-databases/
/// heart-rate-demo.json) on an in-process controller; the client's controller is served as H4
/// over TCP on 127.0.0.1 (``H4TCPListener`` + ``HCITransportBridge``). The rig's socket and the
/// peripheral's stack run on one ``HostExecutor`` (one thread, as a process serving virtual
/// controllers would run them). Our client attaches with ``H4StreamTransport/connect(host:port:timeout:maximumPacketSize:executor:)``
/// in this process, its stack, its socket and its caller on a ``HostExecutor`` of its own (one
/// thread, as Bumble's client runs on one asyncio thread); Bumble's host with
/// `tcp-client:127.0.0.1:PORT` (Scripts/bumble/bench_client.py, in its own process). Both
/// connect with a 7.5 ms interval, exchange ATT_MTU 247, discover, then:
///
/// - read Body Sensor Location (1 octet) with one Read Request at a time (Core v5.4, Vol 3,
///   Part F, 3.3.2), a warm-up, then rounds timed by the client;
/// - receive Heart Rate Measurement notifications that our server sends back to back (each
///   `notify` waits for ACL credits), timed by the client from a round's first arrival to its
///   last.
///
/// Why the radio is not the bottleneck: a round trip needs the request's connection event and a
/// later one for the response, at most two 7.5 ms intervals of virtual time; at ``speed``
/// 20,000 that is 0.75 µs of real time, against tens of µs of host work. The radio runs only
/// connection events that carry data, and the peripheral stops advertising once connected, so
/// idle virtual time costs nothing.
enum HostStackBench {
    /// Virtual seconds per real second.
    static let speed = 20_000.0
    /// How many runs each client makes, alternating.
    static let pairs = 3
    static let database = Corpus.packageRoot + "/Fixtures/gatt-databases/heart-rate-demo.json"
    static let bumbleScript = Corpus.packageRoot + "/Scripts/bumble/bench_client.py"
    static let readable = BluetoothUUID(0x2A38)   // Body Sensor Location
    static let notifying = BluetoothUUID(0x2A37)  // Heart Rate Measurement

    /// How much each client does: `warmUp` untimed reads and notifications first, then
    /// `rounds` rounds of `reads` Read Requests, then `rounds` rounds of `notifications`.
    struct Workload {
        var reads = 2_000
        var notifications = 2_000
        var rounds = 5
        var warmUp = 200
    }

    /// One client's figures.
    struct Figures {
        var reads: Bench.Result
        /// nil when notifications were lost (see ``lost``).
        var notifications: Bench.Result?
        /// Why there is no notification rate: how many of the notifications sent never reached
        /// the client, and where the host counted them.
        var lost: String?
        /// CPU time per Read Request by thread name, in µs, over the timed reads (our client only:
        /// its thread and the rig's run in this process).
        var cpuPerRoundTrip: [String: Double] = [:]
        /// CPU time per notification by thread name, in µs, over all the notifications sent
        /// (warm-up included; our client only), and jobs and wake-ups per notification by executor.
        var cpuPerNotification: [String: Double] = [:]
        var jobsPerNotification: [String: Double] = [:]
        var wakeUpsPerNotification: [String: Double] = [:]
        /// Jobs per Read Request by executor name, over the timed reads (our client only: the
        /// ``HostExecutor``s of its stack and of the rig; ``HostExecutor/jobsRun``).
        var jobsPerRoundTrip: [String: Double] = [:]
        /// Wake-ups from poll(2) per Read Request by executor name, over the timed reads (our
        /// client only; ``HostExecutor/wakeUps``): each is a thread that slept and was woken.
        var wakeUpsPerRoundTrip: [String: Double] = [:]

        /// The rounds of several runs as one: their rounds together; notifications only when
        /// no run lost any.
        static func merged(_ runs: [Figures]) -> Figures {
            var reads = runs[0].reads
            reads.roundSeconds = runs.flatMap(\.reads.roundSeconds)
            var merged = Figures(reads: reads, notifications: nil, lost: runs.compactMap(\.lost).first)
            // Each per-operation figure: the median of the runs, by thread or executor name.
            for key in [\Figures.cpuPerRoundTrip, \.jobsPerRoundTrip, \.wakeUpsPerRoundTrip,
                        \.cpuPerNotification, \.jobsPerNotification, \.wakeUpsPerNotification] {
                for name in Set(runs.flatMap { $0[keyPath: key].keys }) {
                    let values = runs.compactMap { $0[keyPath: key][name] }.sorted()
                    merged[keyPath: key][name] = values[values.count / 2]
                }
            }
            if merged.lost == nil, var notifications = runs[0].notifications {
                notifications.roundSeconds = runs.flatMap { $0.notifications?.roundSeconds ?? [] }
                merged.notifications = notifications
            }
            return merged
        }
    }

    /// Where our client's stack and caller run.
    enum Threading: String {
        /// Its stack, its socket and the benchmark's loop on one ``HostExecutor``.
        case hostExecutor = "its own HostExecutor"
        /// Its stack's tasks on the cooperative pool, its socket on a reader thread (no executor).
        case cooperativePool = "the cooperative pool"
    }

    /// The radio, the served controller and the peripheral of one run.
    struct Rig {
        /// The thread of the served controller's socket and of the peripheral's stack.
        let executor: HostExecutor
        let radio: VirtualRadio
        let listener: H4TCPListener
        let serving: Task<HCITransportBridge.Counts, Never>
        let peripheral: HostStack
        let server: GATTServer
        let advertiser: LEAdvertiser
        let accepted: Task<GATTServerConnection?, Never>

        static func make() async throws -> Rig {
            // The clients' ATT timers run on the real clock, and the benchmark keeps the hosts'
            // executor busy on purpose: the radio need not wait for it.
            let radio = VirtualRadio(seed: 99, timing: .paced(speed: speed), waitsForHosts: false)
            let served = radio.makeController()
            let executor = HostExecutor(name: "bench rig")
            let listener = try H4TCPListener(host: "127.0.0.1", port: 0, executor: executor)
            let serving = Task {
                for await host in listener.connections {
                    return await HCITransportBridge.run(host: host, controller: served.attach())
                }
                return HCITransportBridge.Counts()
            }
            let peripheral = try await HostStack.start(on: radio.makeController().attach(), executor: executor)
            let server = try GATTServer(database: try GATTDatabase(jsonFile: database))
            let advertiser = peripheral.makeAdvertiser()
            var parameters = peripheral.advertisingParameters(advertisingData: [.localName(ADLocalName(bytes: Array("bench".utf8)))])
            parameters.readvertiseAfterConnection = false
            parameters.readvertiseAfterDisconnection = false
            try await advertiser.start(parameters)
            let accepted = Task { () -> GATTServerConnection? in
                for await connection in peripheral.connections.incomingConnections {
                    return await server.connect(connection.att)
                }
                return nil
            }
            return Rig(executor: executor, radio: radio, listener: listener, serving: serving, peripheral: peripheral, server: server,
                       advertiser: advertiser, accepted: accepted)
        }

        func valueHandle(_ uuid: BluetoothUUID) async throws -> UInt16 {
            guard let characteristic = await server.database.characteristics(uuid).first else {
                throw BenchError("heart-rate-demo.json has no \(uuid)")
            }
            return characteristic.valueHandle
        }

        /// Sends `count` notifications to the connected client, each after the last was queued,
        /// from a task on the rig's executor, where the peripheral's stack runs (as a peripheral
        /// in a process of its own would): not on the caller's, which for our client is the
        /// client's thread.
        func notify(_ count: Int, on connection: GATTServerConnection) async throws {
            let handle = try await valueHandle(notifying)
            try await Task(executorPreference: executor) {
                for n in 0..<count {
                    _ = try await connection.notify([0x00, UInt8(truncatingIfNeeded: 60 + n % 120)], for: handle)
                }
            }.value
        }

        func close() async {
            await peripheral.close()
            listener.close()
            _ = await serving.value
            radio.shutDown()
        }
    }

    /// Our stack as the client: over H4/TCP like Bumble's, or (`overTCP` false, for reference)
    /// on a controller of the same radio in this process, without the socket and the bridge, on
    /// the rig's thread. `threading` says where the client's stack and this caller run.
    static func ours(_ workload: Workload, overTCP: Bool = true, threading: Threading = .hostExecutor) async throws -> Figures {
        let rig = try await Rig.make()
        let executor: HostExecutor? = switch threading {
        case .hostExecutor: overTCP ? HostExecutor(name: "bench client") : rig.executor
        case .cooperativePool: nil
        }
        return try await withTaskExecutorPreference(executor) {
            try await ours(workload, rig: rig, overTCP: overTCP, executor: executor)
        }
    }

    /// ``ours(_:overTCP:threading:)`` on `executor`, which reads the transport and runs the stack.
    private static func ours(_ workload: Workload, rig: Rig, overTCP: Bool, executor: HostExecutor?) async throws -> Figures {
        let transport: any HCITransport = overTCP
            ? try await H4StreamTransport.connect(host: "127.0.0.1", port: rig.listener.port, executor: executor)
            : rig.radio.makeController().attach()
        let central = try await HostStack.start(on: transport, executor: executor)
        let link = try await central.connections.connect(to: rig.peripheral.controller.address, addressType: rig.peripheral.addressType,
                                                         parameters: LEConnectionParametersRequest(intervalMin: 6, intervalMax: 6, timeout: 100),
                                                         timeout: .seconds(20))
        guard let serverConnection = await rig.accepted.value else { throw BenchError("no incoming connection") }
        try await rig.advertiser.stop()
        let client = GATTClient(engine: ATTEngine(bearer: link.att))
        _ = try await client.exchangeMTU()
        let services = try await client.discoverDatabase()
        let characteristics = services.flatMap(\.characteristics)
        guard let readable = characteristics.first(where: { $0.uuid == readable }),
              let notifying = characteristics.first(where: { $0.uuid == notifying }) else {
            throw BenchError("discovery missed 2A38 or 2A37")
        }

        let clock = ContinuousClock()
        for _ in 0..<workload.warmUp { _ = try await client.read(readable.valueHandle) }
        var readSeconds: [Double] = []
        let cpuBefore = ThreadCPU.read()
        let executorsBefore = ExecutorCounts(client: executor, rig: rig.executor)
        for _ in 0..<workload.rounds {
            let start = clock.now
            for _ in 0..<workload.reads { _ = try await client.read(readable.valueHandle) }
            readSeconds.append(Bench.seconds(clock.now - start))
        }
        let cpu = ThreadCPU.read().microseconds(since: cpuBefore, per: workload.rounds * workload.reads)
        let (jobs, wakeUps) = executorsBefore.perOperation(workload.rounds * workload.reads)

        let subscription = try await client.notifications(for: notifying, kind: .notification)
        let total = workload.warmUp + workload.rounds * workload.notifications
        let receiver = Task(executorPreference: executor) {
            var arrivals: [ContinuousClock.Instant] = []
            arrivals.reserveCapacity(total)
            for await _ in subscription {
                arrivals.append(clock.now)
                if arrivals.count == total { break }
            }
            return arrivals
        }
        let notificationCPUBefore = ThreadCPU.read()
        let notificationExecutorsBefore = ExecutorCounts(client: executor, rig: rig.executor)
        try await rig.notify(total, on: serverConnection)
        // Bounded: what has not arrived 10 s after the last was sent never will (the iteration
        // ends when its task is cancelled).
        let deadline = Task {
            try await Task.sleep(for: .seconds(10))
            receiver.cancel()
        }
        let arrivals = await receiver.value
        deadline.cancel()
        let notificationCPU = ThreadCPU.read().microseconds(since: notificationCPUBefore, per: total)
        let (notificationJobs, notificationWakeUps) = notificationExecutorsBefore.perOperation(total)
        var lost: String?
        var notificationSeconds: [Double] = []
        if arrivals.count == total {
            notificationSeconds = (0..<workload.rounds).map { round in
                let first = workload.warmUp + round * workload.notifications
                return Bench.seconds(arrivals[first + workload.notifications - 1] - arrivals[first])
            }
        } else {
            lost = "\(total - arrivals.count) of \(total) notifications lost in our client's host (ATT inbox drops: "
                + "\(await central.connections.diagnostics.droppedATTPDUs); \(await central.flow.routingStatistics))"
        }
        try await link.disconnect()
        await central.close()
        await rig.close()
        var result = figures(overTCP ? "LinuxBLE" : "LinuxBLE in-process", workload, readSeconds, notificationSeconds)
        result.cpuPerRoundTrip = cpu
        result.jobsPerRoundTrip = jobs
        result.wakeUpsPerRoundTrip = wakeUps
        result.cpuPerNotification = notificationCPU
        result.jobsPerNotification = notificationJobs
        result.wakeUpsPerNotification = notificationWakeUps
        if let lost {
            result.notifications = nil
            result.lost = lost
        }
        return result
    }

    /// Bumble's host as the client, run with `python` (the pinned venv's).
    static func bumble(python: String, _ workload: Workload) async throws -> Figures {
        let rig = try await Rig.make()
        let process = try LineProcess(python, [
            bumbleScript, "--transport", "tcp-client:127.0.0.1:\(rig.listener.port)",
            "--peer", rig.peripheral.controller.address.description,
            "--reads", String(workload.reads), "--notifications", String(workload.notifications),
            "--rounds", String(workload.rounds), "--warm-up", String(workload.warmUp),
        ])
        defer { process.kill() }
        var readSeconds: [Double] = [], notificationSeconds: [Double] = []
        var sender: Task<Void, any Error>?
        for await line in process.lines {
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                  let event = object["event"] as? String else { continue }
            switch event {
            case "reads": readSeconds.append((object["seconds"] as? Double) ?? .nan)
            case "subscribed":
                guard let serverConnection = await rig.accepted.value else { throw BenchError("no incoming connection") }
                let total = workload.warmUp + workload.rounds * workload.notifications
                sender = Task { try await rig.notify(total, on: serverConnection) }
            case "notifications": notificationSeconds.append((object["seconds"] as? Double) ?? .nan)
            case "failed": throw BenchError("Bumble's client failed: \(object["reason"] ?? line)")
            default: break
            }
        }
        try await sender?.value
        guard process.waitForExit() == 0, readSeconds.count == workload.rounds, notificationSeconds.count == workload.rounds else {
            throw BenchError("Bumble's client ended early (\(readSeconds.count) read rounds, \(notificationSeconds.count) notification rounds)")
        }
        await rig.close()
        return figures("Bumble 0.0.236", workload, readSeconds, notificationSeconds)
    }

    private static func figures(_ who: String, _ workload: Workload, _ reads: [Double], _ notifications: [Double]) -> Figures {
        Figures(
            reads: Bench.Result(name: "\(who) host as client: Read Requests answered (round trips)", unit: "round trips/s",
                                operationsPerRound: workload.reads, roundSeconds: reads),
            notifications: Bench.Result(name: "\(who) host as client: notifications received", unit: "notifications/s",
                                        operationsPerRound: workload.notifications - 1, roundSeconds: notifications))
    }
}

/// A child process whose standard output is read line by line; its standard error goes to ours.
final class LineProcess: Sendable {
    /// The lines of its standard output, until it closes.
    let lines: AsyncStream<String>
    private let process: Process

    init(_ executable: String, _ arguments: [String]) throws {
        process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.standardError
        let (lines, continuation) = AsyncStream.makeStream(of: String.self)
        self.lines = lines
        try process.run()
        let handle = output.fileHandleForReading
        Thread {
            var pending = Data()
            while true {
                let chunk = handle.availableData
                if chunk.isEmpty { break }
                pending.append(chunk)
                while let newline = pending.firstIndex(of: 0x0A) {
                    continuation.yield(String(decoding: pending[pending.startIndex..<newline], as: UTF8.self))
                    pending.removeSubrange(pending.startIndex...newline)
                }
            }
            continuation.finish()
        }.start()
    }

    /// Waits for the exit (its output has ended) and returns the status.
    func waitForExit() -> Int32 {
        process.waitUntilExit()
        return process.terminationStatus
    }

    /// Ends it if it still runs.
    func kill() { if process.isRunning { process.terminate() } }
}

/// CPU time of this process's threads by name (threads of one name summed), from
/// /proc/self/task/*/schedstat (its first field: time on a CPU, in ns).
struct ThreadCPU {
    var nanoseconds: [String: Int]

    static func read() -> ThreadCPU {
        var result: [String: Int] = [:]
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
        for tid in tasks {
            guard let name = try? String(contentsOfFile: "/proc/self/task/\(tid)/comm", encoding: .utf8),
                  let stat = try? String(contentsOfFile: "/proc/self/task/\(tid)/schedstat", encoding: .utf8),
                  let first = stat.split(separator: " ").first, let ns = Int(first) else { continue }
            result[name.trimmingCharacters(in: .whitespacesAndNewlines), default: 0] += ns
        }
        return ThreadCPU(nanoseconds: result)
    }

    /// µs per operation since `before`, for threads that ran at least 1 µs per operation.
    func microseconds(since before: ThreadCPU, per operations: Int) -> [String: Double] {
        var result: [String: Double] = [:]
        for (name, ns) in nanoseconds {
            let perOperation = Double(ns - (before.nanoseconds[name] ?? 0)) / Double(operations) / 1000
            if perOperation >= 1 { result[name] = perOperation }
        }
        return result
    }
}

/// The jobs run and wake-ups of our client's ``HostExecutor`` (when it has one of its own) and
/// the rig's at one moment, to count them per operation over a stretch of the run.
struct ExecutorCounts {
    private struct Count {
        let executor: HostExecutor
        let jobs: Int
        let wakeUps: Int
    }

    private let counts: [String: Count]

    /// The counts now, by name: "bench client" (unless it has no executor, or shares the
    /// rig's) and "bench rig".
    init(client: HostExecutor?, rig: HostExecutor) {
        var executors = ["bench rig": rig]
        if let client, client !== rig { executors["bench client"] = client }
        counts = executors.mapValues { Count(executor: $0, jobs: $0.jobsRun, wakeUps: $0.wakeUps) }
    }

    /// Jobs and wake-ups per operation by name since these counts, over `operations`.
    func perOperation(_ operations: Int) -> (jobs: [String: Double], wakeUps: [String: Double]) {
        (counts.mapValues { Double($0.executor.jobsRun - $0.jobs) / Double(operations) },
         counts.mapValues { Double($0.executor.wakeUps - $0.wakeUps) / Double(operations) })
    }
}

/// The floor under every client's round trip in the host-stack rows: TCP ping-pong on
/// 127.0.0.1 between two threads of this process, one octet each way (TCP_NODELAY, blocking
/// read(2) and write(2)), with no HCI, no stack and no Swift concurrency. The rows' clients pay
/// this once per Read Request (the request to the rig and the response back) on top of their
/// own work and the rig's.
enum LoopbackFloor {
    /// Round trips per second over `count` round trips, or nil when a socket call fails.
    static func roundTripsPerSecond(count: Int = 20_000) -> Double? {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard listener >= 0 else { return nil }
        defer { close(listener) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = in_addr_t(0x7F00_0001).bigEndian
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
                bind(listener, socketAddress, length) == 0 && listen(listener, 1) == 0
                    && getsockname(listener, socketAddress, &length) == 0
            }
        }
        guard bound else { return nil }
        let target = address
        let echo = Thread {
            let client = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var peer = target
            let connected = withUnsafePointer(to: &peer) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(client, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
            }
            guard connected else { close(client); return }
            noDelay(client)
            var octet: UInt8 = 0
            while read(client, &octet, 1) == 1, write(client, &octet, 1) == 1 {}
            close(client)
        }
        echo.start()
        let server = accept(listener, nil, nil)
        guard server >= 0 else { return nil }
        defer { close(server) }
        noDelay(server)
        var octet: UInt8 = 0x2A
        let clock = ContinuousClock()
        let start = clock.now
        for _ in 0..<count {
            guard write(server, &octet, 1) == 1, read(server, &octet, 1) == 1 else { return nil }
        }
        return Double(count) / Bench.seconds(clock.now - start)
    }

    private static func noDelay(_ descriptor: Int32) {
        var on: Int32 = 1
        _ = setsockopt(descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &on, socklen_t(MemoryLayout<Int32>.size))
    }
}
