import ATT
import BLECore

/// The outcome of running one PDU script.
public struct PDUScriptOutcome: Sendable {
    public var script: String
    /// Whether every step held.
    public var passed: Bool { failures.isEmpty }
    /// What went wrong, each with its script line.
    public var failures: [String]
    /// Every PDU exchanged, in order: `> 0a0300` sent by the script, `< 0b41` sent by the stack.
    public var transcript: [String]
}

/// Runs PDU scripts: the stack under test on one end of an in-memory ATT bearer, the script
/// on the other, sending and expecting raw PDUs (docs/pdu-scripts.md).
public enum PDUScriptRunner {
    /// Runs `script` against `device`, which is attached to `stackEnd`; the script uses `scriptEnd`.
    ///
    /// - Parameters:
    ///   - wait: how long an `expect` waits for the stack's PDU before the script fails (wall
    ///     clock; the stack's own ATT timeouts run on a test clock). A passing script never waits
    ///     it out, so it is long (20 s): a test run that loads every core must not turn a slow
    ///     answer into a failure. `expect-nothing` watches for 50 ms of silence.
    public static func run(_ script: PDUScript, device: any PDUScriptDevice, scriptEnd: InMemoryATTBearer,
                           wait: Duration = .seconds(20)) async -> PDUScriptOutcome {
        var outcome = PDUScriptOutcome(script: script.name, failures: [], transcript: [])
        let inbox = Inbox(scriptEnd.received)
        var pendingTrigger: (task: Task<Result<String, PDUScriptDeviceError>, Never>, line: Int)?

        stepLoop: for step in script.steps {
            switch step {
            case let .send(pdu, _):
                outcome.transcript.append("> " + Hex.encode(pdu))
                do { try await scriptEnd.send(pdu) } catch {
                    outcome.failures.append("line \(step.line): the stack closed the bearer before this send")
                    break stepLoop
                }
            case let .expect(pattern, line):
                guard let pdu = await inbox.next(within: wait) else {
                    outcome.failures.append("line \(line): expected \(pattern), the stack sent nothing")
                    break stepLoop
                }
                outcome.transcript.append("< " + Hex.encode(pdu))
                if !pattern.matches(pdu) {
                    outcome.failures.append("line \(line): expected \(pattern), the stack sent \(Hex.encode(pdu, separator: " "))")
                    break stepLoop
                }
            case let .expectNothing(line):
                if let pdu = await inbox.next(within: .milliseconds(50)) {
                    outcome.transcript.append("< " + Hex.encode(pdu))
                    outcome.failures.append("line \(line): expected nothing, the stack sent \(Hex.encode(pdu, separator: " "))")
                    break stepLoop
                }
            case let .trigger(name, arguments, line):
                let task = Task { () -> Result<String, PDUScriptDeviceError> in
                    do { return .success(try await device.perform(name, arguments)) } catch {
                        return .failure(error as? PDUScriptDeviceError ?? PDUScriptDeviceError("\(error)"))
                    }
                }
                pendingTrigger = (task, line)
            case let .result(expected, line):
                guard let trigger = pendingTrigger else {
                    outcome.failures.append("line \(line): no trigger to take a result from")
                    break stepLoop
                }
                pendingTrigger = nil
                switch await trigger.task.value {
                case .success(let text) where text == expected:
                    break
                case .success(let text):
                    outcome.failures.append("line \(line): expected result \(expected), got \(text) (trigger on line \(trigger.line))")
                    break stepLoop
                case .failure(let error):
                    outcome.failures.append("line \(trigger.line): the trigger failed: \(error)")
                    break stepLoop
                }
            }
        }
        await device.close()
        if let trigger = pendingTrigger { _ = await trigger.task.value }
        return outcome
    }
}

/// The PDUs the stack sent, read one at a time with a deadline.
actor Inbox {
    private var buffered: [[UInt8]] = []
    private var waiter: CheckedContinuation<[UInt8]?, Never>?
    /// Which call of ``next(within:)`` the waiter belongs to, so a late timer cannot end a later wait.
    private var waiterID = 0
    private var finished = false
    private var reader: Task<Void, Never>?

    init(_ stream: AsyncStream<[UInt8]>) {
        reader = nil
        Task { await self.start(stream) }
    }

    private func start(_ stream: AsyncStream<[UInt8]>) {
        reader = Task {
            for await pdu in stream { self.deliver(pdu) }
            self.finish()
        }
    }

    private func deliver(_ pdu: [UInt8]) {
        if let waiter {
            self.waiter = nil
            waiter.resume(returning: pdu)
        } else {
            buffered.append(pdu)
        }
    }

    private func finish() {
        finished = true
        waiter?.resume(returning: nil)
        waiter = nil
    }

    /// The next PDU, or nil if none arrives within `limit` (or the bearer closed).
    func next(within limit: Duration) async -> [UInt8]? {
        if !buffered.isEmpty { return buffered.removeFirst() }
        if finished { return nil }
        waiterID += 1
        let id = waiterID
        let timer = Task {
            try? await Task.sleep(for: limit)
            if !Task.isCancelled { self.expire(id) }
        }
        let pdu = await withCheckedContinuation { self.waiter = $0 }
        timer.cancel()
        return pdu
    }

    private func expire(_ id: Int) {
        guard id == waiterID, let waiter else { return }
        self.waiter = nil
        waiter.resume(returning: nil)
    }
}

extension PDUScriptRunner {
    /// Runs `script` against a fresh stack of the role it names: a ``ClientDevice`` for
    /// `role: client`, a server on the script's database for `role: server`, on an in-memory
    /// bearer whose security comes from the `security:` header. The stack's ATT timeouts run on
    /// a test clock that never advances, so a script never waits 30 s.
    ///
    /// - Parameter databases: the folder that `database:` names are relative to.
    public static func run(_ script: PDUScript, databases: String) async -> PDUScriptOutcome {
        let security: ATTSecurity
        do { security = try parseSecurity(script.security) } catch {
            return PDUScriptOutcome(script: script.name, failures: ["security: \(error)"], transcript: [])
        }
        let (stackEnd, scriptEnd) = InMemoryATTBearer.pair(maximumMTU: (517, 517), security: (security, .none))
        let device: any PDUScriptDevice
        switch script.role {
        case .client:
            device = ClientDevice(bearer: stackEnd, clock: TestClock())
        case .server:
            do {
                device = try await makeServerDevice(script, databases: databases, bearer: stackEnd)
            } catch {
                return PDUScriptOutcome(script: script.name, failures: ["database: \(error)"], transcript: [])
            }
        }
        return await run(script, device: device, scriptEnd: scriptEnd)
    }

    /// The link security a `security:` header (or `blectl serve --security`) names: `none`;
    /// `encrypted [key-size N]`; `authenticated [key-size N]`; `authorized` may follow either.
    ///
    /// - Throws: ``PDUScriptDeviceError`` for an unknown word or a key size outside 7...16 octets.
    public static func parseSecurity(_ text: String?) throws(PDUScriptDeviceError) -> ATTSecurity {
        var security = ATTSecurity.none
        guard let text else { return security }
        var words = text.split(separator: " ").map(String.init)[...]
        while let word = words.popFirst() {
            switch word {
            case "none": break
            case "encrypted":
                security.isEncrypted = true
                security.encryptionKeySize = 16
            case "authenticated":
                security.isEncrypted = true
                security.isAuthenticated = true
                security.encryptionKeySize = 16
            case "authorized":
                security.isAuthorized = true
            case "key-size":
                guard let size = words.popFirst().flatMap({ Int($0) }), (7...16).contains(size) else {
                    throw PDUScriptDeviceError("key-size takes 7...16")
                }
                security.encryptionKeySize = size
            default:
                throw PDUScriptDeviceError("unknown security word \(word)")
            }
        }
        return security
    }
}
