import BLECore
import CBluetoothLinux
import Dispatch
#if canImport(Glibc)
import Glibc
#endif

/// Why a management command failed.
public enum ManagementError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The kernel answered with a status other than Success.
    case status(command: String, index: UInt16, ManagementStatus)
    /// No answer within the timeout.
    case timeout(command: String)
    /// The channel is closed.
    case closed
    /// The caller's task was cancelled while the command waited for its turn (it was not sent)
    /// or for the kernel's answer (it was sent, and may still take effect).
    case cancelled(command: String)
    /// The kernel's answer did not decode.
    case malformed(BLEDecodingError)
    /// The socket could not be opened, bound or written.
    case system(LinuxBluetoothError)

    /// One line, with what to do where there is a usual remedy.
    public var description: String {
        switch self {
        case .status(let command, let index, let status):
            let remedy: String
            switch status {
            case .invalidIndex: remedy = ": no such adapter; `blectl list` shows the adapters"
            case .rfkilled: remedy = ": the adapter is blocked by rfkill; `rfkill unblock bluetooth`"
            case .permissionDenied: remedy = ": needs CAP_NET_ADMIN (run as root, or setcap cap_net_admin)"
            case .busy: remedy = ": the adapter is busy; retry"
            default: remedy = ""
            }
            return "\(command) on hci\(index): \(status)\(remedy)"
        case .timeout(let command): return "\(command): the kernel did not answer"
        case .closed: return "the management channel is closed"
        case .cancelled(let command): return "\(command): cancelled before the kernel answered"
        case .malformed(let error): return "the kernel's management answer did not decode: \(error)"
        case .system(let error): return "\(error)"
        }
    }
}

/// The kernel's Bluetooth management channel (an HCI socket on HCI_CHANNEL_CONTROL; needs
/// CAP_NET_ADMIN): powers adapters on and off and turns LE on, with no daemon. One command is
/// outstanding at a time; the answer is the Command Complete or Command Status event for its
/// opcode and controller index (Linux, BlueZ doc/mgmt-api.txt).
public actor ManagementChannel {
    private let channel: MessageSocket
    /// One event that answers no command, with the index of the controller it is about.
    public typealias IndexedEvent = (controllerIndex: UInt16, event: ManagementEvent)

    /// The subscribers of ``events()``; each keeps the newest 64 events while its reader lags.
    private nonisolated let subscribers = StreamFanOut<IndexedEvent>(bufferingNewest: 64)
    /// How the outstanding command ended.
    private enum Outcome {
        case returned([UInt8])
        case status(ManagementStatus)
        case timeout
        case closed
        case cancelled
    }

    /// The outstanding command. It is registered before it is sent: the kernel may answer
    /// within the send itself, before the sender is waiting (then ``early`` keeps the answer).
    private struct Pending {
        let code: UInt16
        let index: UInt16
        let id: UInt64
        var continuation: CheckedContinuation<Outcome, Never>?
        var early: Outcome?
        /// Its caller was cancelled and has gone: the command keeps the channel until its
        /// answer or its timeout, so that the answer cannot be taken for the next command's.
        var abandoned = false
    }
    private var pending: Pending?
    /// Whether a command holds the channel (it may not have sent yet); others wait their turn.
    private var isBusy = false
    /// The commands waiting for their turn, first come first served, each with its number;
    /// resumed with true when it is theirs, false when their caller was cancelled.
    private var turnWaiters: [(id: UInt64, continuation: CheckedContinuation<Bool, Never>)] = []
    private var lastID: UInt64 = 0
    private var isClosed = false

    /// Opens and binds the channel.
    ///
    /// - Throws: ``ManagementError/system(_:)``: EPERM without CAP_NET_ADMIN (the error says how
    ///   to grant it), EAFNOSUPPORT without kernel Bluetooth.
    public init() throws(ManagementError) {
        let operation = LinuxBluetoothError.Operation.bindHCI(index: nil, channel: UInt16(HCI_CHANNEL_CONTROL))
        let socket: BluetoothSocket
        do {
            socket = try BluetoothSocket(hci: operation)
            _ = try LinuxBluetoothError.check(cbl_hci_bind(socket.descriptor, ManagementPacket.noController, UInt16(HCI_CHANNEL_CONTROL)),
                                              operation)
        } catch {
            throw .system(error)
        }
        self.init(socket: socket)
    }

    /// A channel on `socket`, already bound (tests give one end of a socket pair).
    init(socket: BluetoothSocket) {
        channel = MessageSocket(socket, receiveCapacity: 1024, label: "LinuxBluetooth.ManagementChannel")
        let messages = channel.messages
        Task { [weak self] in
            for await message in messages {
                // A packet that does not decode cannot answer the pending command; its timeout stands.
                if let packet = try? ManagementPacket(decoding: message) { await self?.receive(packet) }
            }
            await self?.close()
        }
    }

    /// The longest a command waits: 100 years. A longer timeout (such as `.seconds(Int64.max)`
    /// for "never") is the same wait in practice, and its deadline would pass the seconds
    /// Task.sleep can hold (the sleep traps).
    static let longestTimeout: Duration = .seconds(100 * 365 * 24 * 3600)

    /// Sends `command` to controller `index` and returns its return parameters.
    ///
    /// Cancelling the caller's task ends the call at once with ``ManagementError/cancelled(command:)``:
    /// while it waits for its turn (the command is not sent) or for the kernel's answer (the
    /// command was sent and may still take effect). A command cancelled after it was sent keeps
    /// the channel until its answer (which is dropped) or its timeout, at most 10 s more: the
    /// next command goes after it, so that answer cannot be taken for the next one's (the
    /// kernel answers a command's code and controller index, not the command).
    ///
    /// - Throws: ``ManagementError``: the status when it is not Success, a timeout, closed,
    ///   cancelled.
    public func send(_ command: ManagementCommand, to index: UInt16, timeout: Duration = .seconds(10)) async throws(ManagementError) -> [UInt8] {
        lastID &+= 1
        let id = lastID
        // One command at a time, first come first served.
        if isBusy {
            let granted = await withTaskCancellationHandler {
                await withCheckedContinuation { continuation in
                    if Task.isCancelled { continuation.resume(returning: false) } else { turnWaiters.append((id, continuation)) }
                }
            } onCancel: {
                Task { await self.withdraw(id) }
            }
            guard granted else { throw .cancelled(command: command.name) }
        }
        isBusy = true
        // An abandoned command passes the turn when its answer or its timeout comes.
        var keepsTurn = false
        defer { if !keepsTurn { passTurn() } }
        guard !isClosed else { throw .closed }
        guard !Task.isCancelled else { throw .cancelled(command: command.name) }
        pending = Pending(code: command.code, index: index, id: id)
        do { try await channel.send(command.packet(for: index).encoded, what: "sending \(command.name)") } catch {
            pending = nil
            if isClosed { throw .closed }
            throw .system(error)
        }
        let timer = expiry(of: id, after: min(timeout, Self.longestTimeout))
        let outcome: Outcome
        if let early = pending?.early {
            pending = nil
            outcome = early
        } else {
            outcome = await withTaskCancellationHandler {
                await withCheckedContinuation { continuation in
                    pending?.continuation = continuation
                    if Task.isCancelled { abandon(id) }
                }
            } onCancel: {
                Task { await self.abandon(id) }
            }
        }
        if case .cancelled = outcome {
            keepsTurn = true                  // the timer stays: it ends the abandoned command
        } else {
            timer.cancel()
        }
        switch outcome {
        case .returned(let parameters): return parameters
        case .status(let status): throw .status(command: command.name, index: index, status)
        case .timeout: throw .timeout(command: command.name)
        case .closed: throw .closed
        case .cancelled: throw .cancelled(command: command.name)
        }
    }

    /// The outstanding command's code, and whether its answer came before its sender waited for
    /// it (for tests).
    var outstanding: (code: UInt16, answered: Bool)? { pending.map { ($0.code, $0.early != nil) } }

    /// How many commands wait for their turn (for tests).
    var waitingForTurn: Int { turnWaiters.count }

    private func passTurn() {
        if turnWaiters.isEmpty { isBusy = false } else { turnWaiters.removeFirst().continuation.resume(returning: true) }
    }

    /// The caller of command `id` was cancelled while it waited for its turn: it leaves the line.
    private func withdraw(_ id: UInt64) {
        guard let index = turnWaiters.firstIndex(where: { $0.id == id }) else { return }
        turnWaiters.remove(at: index).continuation.resume(returning: false)
    }

    /// The controller's address, version, settings and name.
    public func controllerInformation(_ index: UInt16) async throws(ManagementError) -> ManagementControllerInformation {
        let parameters = try await send(.readControllerInformation, to: index)
        do { return try ManagementControllerInformation(decoding: parameters) } catch { throw .malformed(error) }
    }

    /// Sends a settings command (Set Powered, Set Low Energy) and returns the Current Settings it
    /// answers with.
    public func set(_ command: ManagementCommand, on index: UInt16) async throws(ManagementError) -> ManagementSettings {
        let parameters = try await send(command, to: index)
        guard parameters.count == 4 else { throw .malformed(.invalidValue(field: "Current Settings", offset: 0, reason: "\(parameters.count) octets, not 4")) }
        return ManagementSettings(rawValue: UInt32(parameters[0]) | UInt32(parameters[1]) << 8 | UInt32(parameters[2]) << 16 | UInt32(parameters[3]) << 24)
    }

    /// Closes the channel; a pending command fails with ``ManagementError/closed``.
    public func close() {
        guard !isClosed else { return }
        isClosed = true
        channel.close()
        finish(.closed)
        subscribers.finish()
    }

    /// A new stream of the events that answer no command (New Settings, User Confirmation
    /// Request, ...) with the index of the controller they are about, from now on, in order. Each
    /// call is a subscriber of its own: ending one (its reader stops or is cancelled) leaves the
    /// others. Keeps the newest 64 while its reader lags; finishes when the channel closes (at
    /// once after).
    public nonisolated func events() -> AsyncStream<IndexedEvent> {
        subscribers.stream()
    }

    private func receive(_ packet: ManagementPacket) {
        let event: ManagementEvent
        do { event = try ManagementEvent(packet) } catch {
            return          // a malformed event answers nothing and tells nothing; a pending command's timeout stands
        }
        switch event {
        case .commandComplete, .commandStatus: break
        default:
            subscribers.yield((packet.controllerIndex, event))
            return
        }
        guard let current = pending, packet.controllerIndex == current.index else { return }
        switch event {
        case .commandComplete(let code, let status, let parameters) where code == current.code:
            finish(status == .success ? .returned(parameters) : .status(status))
        case .commandStatus(let code, let status) where code == current.code && status != .success:
            finish(.status(status))
        default:
            break
        }
    }

    private func expire(_ id: UInt64) {
        guard pending?.id == id else { return }
        finish(.timeout)
    }

    /// How long an abandoned command keeps the channel at most, whatever its own timeout:
    /// 10 s, the default timeout.
    static let abandonedCommandLimit: Duration = .seconds(10)

    /// The caller of command `id` was cancelled while it waited for the answer: it returns
    /// now, and the command stays outstanding, abandoned, until its answer or its timeout (at
    /// most ``abandonedCommandLimit`` from now).
    private func abandon(_ id: UInt64) {
        guard let current = pending, current.id == id, !current.abandoned, current.early == nil,
              let continuation = current.continuation else { return }
        pending?.continuation = nil
        pending?.abandoned = true
        continuation.resume(returning: .cancelled)
        _ = expiry(of: id, after: Self.abandonedCommandLimit)
    }

    /// A timer that ends command `id` with a timeout after `duration`, unless it has ended by
    /// then; cancel it to stop it.
    private func expiry(of id: UInt64, after duration: Duration) -> Task<Void, Never> {
        Task { [weak self] in
            try? await Task.sleep(for: duration)
            await self?.expire(id)
        }
    }

    /// Ends the outstanding command with `outcome`: resumes its caller, or keeps the outcome
    /// for it when it has not begun waiting yet (the first outcome stands). An abandoned
    /// command's end passes the turn to the next command.
    private func finish(_ outcome: Outcome) {
        guard let current = pending, current.early == nil else { return }
        if current.abandoned {
            pending = nil
            passTurn()
            return
        }
        guard let continuation = current.continuation else {
            pending?.early = outcome          // answered before the sender waits; it takes this
            return
        }
        pending = nil
        continuation.resume(returning: outcome)
    }
}
