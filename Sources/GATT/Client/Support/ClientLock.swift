/// A first-come-first-served lock for procedures of one ``GATTClient`` that must not
/// interleave (the prepare queue's users; changes to the discovered tree). It lives in the
/// actor's state, so every operation runs on the actor and none suspends but ``GATTClient/acquire(_:)``.
struct ClientLock {
    private var isHeld = false
    private var waiters: [CheckedContinuation<Void, Never>] = []

    /// Takes the lock if it is free.
    mutating func takeIfFree() -> Bool {
        guard !isHeld else { return false }
        isHeld = true
        return true
    }

    /// Queues a caller for the lock.
    mutating func enqueue(_ waiter: CheckedContinuation<Void, Never>) {
        waiters.append(waiter)
    }

    /// Releases the lock to the next waiter (which now holds it), if any.
    mutating func passOn() -> CheckedContinuation<Void, Never>? {
        guard !waiters.isEmpty else {
            isHeld = false
            return nil
        }
        return waiters.removeFirst()
    }
}

/// The client's two locks.
enum ClientLockID {
    /// Changes to ``GATTClient/services`` (discovery, Service Changed, recovery).
    case tree
    /// The server's prepare queue (write long, reliable writes).
    case queuedWrites
}

extension GATTClient {
    /// Waits until `lock` is this caller's.
    func acquire(_ lock: ClientLockID) async {
        let free = lock == .tree ? treeLock.takeIfFree() : queuedWriteLock.takeIfFree()
        if free { return }
        await withCheckedContinuation { (waiter: CheckedContinuation<Void, Never>) in
            if lock == .tree { treeLock.enqueue(waiter) } else { queuedWriteLock.enqueue(waiter) }
        }
    }

    /// Hands `lock` to the next waiter, or frees it.
    func release(_ lock: ClientLockID) {
        let next = lock == .tree ? treeLock.passOn() : queuedWriteLock.passOn()
        next?.resume()
    }
}
