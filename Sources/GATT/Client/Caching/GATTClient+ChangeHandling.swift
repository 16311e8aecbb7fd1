/// The database changes a client is handling (Service Changed, Core v5.4, Vol 3, Part G, 7.1;
/// Database Out Of Sync, 2.5.2.1), as subscribing sees them.
///
/// Between a change's notice and the end of its handling, the client's tree still holds the
/// handles from before the change, and the handling ends the subscriptions in the range that it
/// has not confirmed. A subscription started in that window would take its CCCD from the old
/// tree, or be ended by the handling as soon as it was made; so subscribing waits for the
/// handling to end, and a subscription that a change overtook while it looked up its CCCD fails
/// with ``GATTClientError/databaseChanged(handle:)`` instead of writing to a handle that may
/// name another attribute now.
extension GATTClient {
    /// How many of the latest changes' ranges the client keeps for ``changed(since:over:)``;
    /// a subscription that more changes overtook is taken as overtaken by one in its range.
    static let keptChangeRanges = 64

    /// Starts handling a change of the handles in `range`: subscribing waits until it ends.
    func beginChange(_ range: ClosedRange<UInt16>) {
        changesBeingHandled += 1
        changeCount &+= 1
        recentChanges.append(range)
        if recentChanges.count > Self.keptChangeRanges { recentChanges.removeFirst() }
    }

    /// Ends the handling of a change that ``beginChange(_:)`` started; once none is left, the
    /// subscriptions waiting go on.
    func endChange() {
        changesBeingHandled -= 1
        if changesBeingHandled == 0 { endChangeWaits() }
    }

    /// Waits until the client handles no change, or has closed.
    func changesHandled() async {
        while changesBeingHandled > 0, !isClosed {
            await withCheckedContinuation { changeWaiters.append($0) }
        }
    }

    /// Whether a change the client learned of after ``changeCount`` was `mark` covers any of
    /// the handles in `range` (true when more changes came than the client keeps).
    func changed(since mark: UInt64, over range: ClosedRange<UInt16>) -> Bool {
        let newer = changeCount &- mark
        guard newer > 0 else { return false }
        guard newer <= UInt64(recentChanges.count) else { return true }
        return recentChanges.suffix(Int(newer)).contains { $0.overlaps(range) }
    }

    /// Lets the subscriptions waiting for a change's handling go on: it ended, or the bearer
    /// closed (they then find the client closed).
    func endChangeWaits() {
        let waiting = changeWaiters
        changeWaiters = []
        for waiter in waiting { waiter.resume() }
    }
}
