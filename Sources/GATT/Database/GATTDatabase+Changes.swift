import BLECore

extension GATTDatabase {
    /// The handles a client must rediscover when this database replaces `old`: the value of a
    /// Service Changed indication (Core v5.4, Vol 3, Part G, 7.1: Start and End of Affected
    /// Attribute Handle Range); nil when the structure is the same.
    ///
    /// The structure is what the Database Hash covers plus every attribute's handle and type:
    /// the two attribute tables are compared from both ends, and the range between the first
    /// and last difference is widened to the whole services around it (in either database), so
    /// a client that rediscovers the range also relearns those services' End Group Handles.
    /// Characteristic values and other descriptor values are not structure.
    public func changedHandles(since old: GATTDatabase) -> ClosedRange<UInt16>? {
        let a = old.attributes, b = attributes
        func same(_ x: GATTAttribute, _ y: GATTAttribute) -> Bool {
            guard x.handle == y.handle, x.type == y.type else { return false }
            guard GATTDatabaseHash.typesWithValue.contains(x.type) else { return true }
            return x.value.fixedValue == y.value.fixedValue
        }
        var front = 0
        while front < a.count, front < b.count, same(a[front], b[front]) { front += 1 }
        if front == a.count, front == b.count { return nil }
        var backA = a.count - 1, backB = b.count - 1
        while backA >= front, backB >= front, same(a[backA], b[backB]) { backA -= 1; backB -= 1 }
        // The first and last differing handles, on whichever side has them.
        var first = UInt16.max, last = UInt16.min
        if front <= backA { first = min(first, a[front].handle); last = max(last, a[backA].handle) }
        if front <= backB { first = min(first, b[front].handle); last = max(last, b[backB].handle) }
        // Widen to the services around them, in both databases.
        for db in [old, self] {
            if let s = db.service(containing: first) { first = min(first, s.handle) }
            if let s = db.service(containing: last) { last = max(last, s.endGroupHandle) }
        }
        return first...last
    }
}
