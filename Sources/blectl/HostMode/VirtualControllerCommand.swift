import Foundation
import Host
import LinuxBluetooth
import VirtualRadio

/// `blectl virtual-controller --listen tcp:HOST:PORT [--listen ...] [--seed N] [--speed X]`:
/// virtual LE controllers on one radio, each served as H4 over TCP, so that hosts in other
/// processes (another blectl with `--transport tcp:HOST:PORT`, Google Bumble with
/// `tcp-client:HOST:PORT`) meet on the radio. One controller per `--listen`; a host that
/// connects gets the controller's HCI; a host that comes back later replaces the earlier one and
/// starts over from its HCI Reset. Runs until Ctrl-C.
enum VirtualControllerCommand {
    static let usage = """
    usage: blectl virtual-controller --listen tcp:HOST:PORT [--listen tcp:HOST:PORT ...] [--seed N] [--speed X]

    Runs one virtual LE controller per --listen, all on one virtual radio, each served as H4 over
    TCP to one host at a time (PORT 0 picks a free port; the line printed says which). Hosts
    attach with `blectl --transport tcp:HOST:PORT ...` or Bumble's `tcp-client:HOST:PORT`.
      --seed N    the radio's seed: the same seed and the same host traffic give the same packets
      --speed X   virtual time runs X times real time (default 1)
    Ctrl-C ends.
    """

    static let listen = CommandOption.value("--listen", "tcp:HOST:PORT", takes: "tcp:HOST:PORT", repeatable: true, required: true)
    static let seedOption = CommandOption.value("--seed", "N", takes: "a number")
    static let speedOption = CommandOption.value("--speed", "X", takes: "a factor, 0 < X <= 1000000")
    static let syntax = CommandSyntax(name: "virtual-controller", options: [listen, seedOption, speedOption], help: usage)

    static func run(arguments: [String], output: inout OutputBuffer) async -> Int32 {
        let parsed: ParsedArguments
        do { parsed = try syntax.parse(arguments, output: &output) } catch { return error.status }
        if let extra = parsed.operands.first { return syntax.usageError("unknown argument '\(extra)'") }
        var listens: [(host: String, port: UInt16)] = []
        for word in parsed.values(of: listen) {
            guard let endpoint = endpoint(word) else { return syntax.usageError(listen.expectation) }
            listens.append(endpoint)
        }
        var seed: UInt64 = 1
        if let word = parsed.value(of: seedOption) {
            guard let value = UInt64(word) else { return syntax.usageError(seedOption.expectation) }
            seed = value
        }
        var speed = 1.0
        if let word = parsed.value(of: speedOption) {
            guard let value = Double(word), value > 0, value <= 1_000_000 else { return syntax.usageError(speedOption.expectation) }
            speed = value
        }
        guard !listens.isEmpty else { return syntax.usageError("give at least one --listen tcp:HOST:PORT") }
        let radio = VirtualRadio(seed: seed, timing: .paced(speed: speed))
        // One thread reads every host's socket and hands its packets to the controllers (the
        // bridge's direct path), as an event loop would.
        let executor = HostExecutor(name: "virtual ctrl")
        var listeners: [H4TCPListener] = []
        var serving: [Task<Void, Never>] = []
        for (index, listen) in listens.enumerated() {
            let listener: H4TCPListener
            do { listener = try H4TCPListener(host: listen.host, port: listen.port, executor: executor) } catch {
                for listener in listeners { listener.close() }
                radio.shutDown()
                printError("blectl virtual-controller: listening on tcp:\(listen.host):\(listen.port): \(error)")
                return 1
            }
            let controller = radio.makeController()
            listeners.append(listener)
            output.line("controller \(index) listening on tcp:\(listener.host):\(listener.port)")
            serving.append(Task {
                for await host in listener.connections {
                    // One host at a time: the next waits until this one leaves.
                    await HCITransportBridge.run(host: host, controller: controller.attach())
                }
            })
        }
        output.line("Ctrl-C ends")
        output.flush()
        let all = listeners
        let interrupt = Interrupt { for listener in all { listener.close() } }
        for task in serving { await task.value }
        interrupt.stop()
        radio.shutDown()
        output.line("stopped")
        return 0
    }

    /// "tcp:HOST:PORT", PORT 0...65535 (0: any free port).
    static func endpoint(_ word: String) -> (host: String, port: UInt16)? {
        guard word.hasPrefix("tcp:"), let colon = word.lastIndex(of: ":"), colon > word.index(word.startIndex, offsetBy: 3),
              let port = UInt16(word[word.index(after: colon)...]) else { return nil }
        let host = word[word.index(word.startIndex, offsetBy: 4)..<colon].trimmingCharacters(in: ["[", "]"])
        return host.isEmpty ? nil : (String(host), port)
    }
}
