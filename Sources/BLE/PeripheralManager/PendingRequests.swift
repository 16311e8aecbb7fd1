import ATT
import Synchronization

/// The requests a ``PeripheralManager`` has asked the application and not had answered: each
/// is answered exactly once, by ``PeripheralManager/respond(to:withResult:)`` or, at its
/// deadline, with Unlikely Error (0x0E).
final class PendingRequests: Sendable {
    private struct Entry {
        let answer: FirstResult<ATTErrorCode>
        /// Set once the entry is stored: a timer started before could fire with nothing to answer.
        var deadline: Task<Void, Never>?
    }

    private let table = Mutex<[ObjectIdentifier: Entry]>([:])

    init() {}

    /// Asks: registers `request`, calls `deliver`, and waits for the answer.
    ///
    /// - Returns: the application's result, or Unlikely Error after `deadline` on `clock`.
    func ask(_ request: ATTRequest, deadline: Duration, clock: any Clock<Duration>, deliver: @Sendable () -> Void) async -> ATTErrorCode {
        let key = ObjectIdentifier(request)
        return await withCheckedContinuation { continuation in
            let answer = FirstResult(continuation)
            table.withLock { $0[key] = Entry(answer: answer) }
            let timer = Task { [weak self] in
                guard (try? await clock.sleep(for: deadline)) != nil else { return }
                _ = self?.answer(key, with: .unlikelyError)
            }
            let pending = table.withLock { table -> Bool in
                guard table[key] != nil else { return false }
                table[key]?.deadline = timer
                return true
            }
            if !pending { timer.cancel() }
            deliver()
        }
    }

    /// Answers `request` with `code` unless it was answered already.
    ///
    /// - Returns: whether this call answered it.
    @discardableResult
    func answer(_ request: ATTRequest, with code: ATTErrorCode) -> Bool { answer(ObjectIdentifier(request), with: code) }

    private func answer(_ key: ObjectIdentifier, with code: ATTErrorCode) -> Bool {
        guard let entry = table.withLock({ $0.removeValue(forKey: key) }) else { return false }
        entry.deadline?.cancel()
        entry.answer.resume(code)
        return true
    }
}
