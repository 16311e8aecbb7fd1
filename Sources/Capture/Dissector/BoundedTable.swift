/// A dictionary with a capacity, for the dissector's per-link, per-device and per-controller
/// state: a capture of any size, even one crafted to create a new entry per record, keeps
/// memory bounded. Inserting past the capacity first evicts the least recently used quarter
/// of the entries (amortised O(log n) per insertion); every access marks an entry used.
struct BoundedTable<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    struct Entry: Sendable {
        var value: Value
        var used: UInt64
    }

    let capacity: Int
    private(set) var entries: [Key: Entry] = [:]
    private var clock: UInt64 = 0
    /// How many entries were evicted to make room, over the table's life.
    private(set) var evictedCount = 0

    init(capacity: Int) { self.capacity = max(1, capacity) }

    var count: Int { entries.count }
    var values: [Value] { entries.values.map(\.value) }
    subscript(key: Key) -> Value? { entries[key]?.value }

    /// Runs `body` on the value for `key` in place, inserting `make()` first if it is absent;
    /// values evicted to make room are passed to `evicted`.
    mutating func update<R>(_ key: Key, default make: @autoclosure () -> Value,
                            evicted: (Value) -> Void = { _ in }, _ body: (inout Value) -> R) -> R {
        clock &+= 1
        let now = clock
        // One hash lookup for a key that is there (the common case): the entry is changed in
        // place through its index, with no copy of the value.
        if let index = entries.index(forKey: key) {
            entries.values[index].used = now
            return body(&entries.values[index].value)
        }
        if entries.count >= capacity { evictLeastRecentlyUsed(evicted) }
        var entry = Entry(value: make(), used: now)
        let result = body(&entry.value)
        entries[key] = entry
        return result
    }

    /// Removes and returns the value for `key`.
    mutating func removeValue(forKey key: Key) -> Value? { entries.removeValue(forKey: key)?.value }

    private mutating func evictLeastRecentlyUsed(_ evicted: (Value) -> Void) {
        let victims = entries.sorted { $0.value.used < $1.value.used }.prefix(max(1, capacity / 4))
        for (key, entry) in victims {
            entries[key] = nil
            evicted(entry.value)
        }
        evictedCount += victims.count
    }
}
