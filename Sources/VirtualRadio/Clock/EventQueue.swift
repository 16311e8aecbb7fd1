import HCI

/// Virtual time inside the radio: microseconds since the radio started. Every BLE unit the
/// radio uses (0.625 ms and 1.25 ms slots, 10 ms timeouts, advDelay in µs) is a whole number of
/// microseconds, so integer arithmetic keeps runs exact and reproducible.
typealias Micros = Int64

extension Duration {
    /// This duration in whole microseconds, rounded up so that a deadline is never early.
    var microsRoundedUp: Micros {
        let (seconds, attoseconds) = components
        let micros = attoseconds / 1_000_000_000_000
        let rest = attoseconds % 1_000_000_000_000
        return seconds * 1_000_000 + micros + (rest > 0 ? 1 : 0)
    }

    /// A duration of `micros` microseconds.
    static func micros(_ micros: Micros) -> Duration { .microseconds(micros) }
}

/// What happens at a scheduled instant of virtual time.
enum RadioEventKind {
    /// The next advertising event of set `set` on controller `controller` (stale unless
    /// `generation` is still the set's).
    case advertising(controller: Int, set: Int, generation: UInt64)
    /// The end of an extended advertising set's Duration (Vol 4, Part E, 7.8.56).
    case advertisingTimeout(controller: Int, set: Int, generation: UInt64)
    /// The end of an extended scan's Duration (Vol 4, Part E, 7.8.65).
    case scanTimeout(controller: Int, generation: UInt64)
    /// A connection event of link `link` (Vol 6, Part B, 4.5.1).
    case connectionEvent(link: Int, generation: UInt64)
    /// The supervision timer of link `link` expires (Vol 6, Part B, 4.5.2).
    case supervisionTimeout(link: Int, generation: UInt64)
    /// A `VirtualClock` sleeper's deadline.
    case wake(sleeper: UInt64)
    /// A packet for a host, held back by the controller's HCI latency fault.
    case deliver(controller: Int, attachment: UInt64, packet: HCIPacket)
}

/// One scheduled event: its time, then the order in which it was scheduled, so events at one
/// instant run in scheduling order (the source of the radio's determinism).
struct RadioEvent {
    let time: Micros
    let sequence: UInt64
    let kind: RadioEventKind
}

/// A binary min-heap of events ordered by (time, sequence).
struct EventQueue {
    private var heap: [RadioEvent] = []
    private var nextSequence: UInt64 = 0

    /// The time of the earliest event; nil when nothing is scheduled.
    var nextTime: Micros? { heap.first?.time }

    /// The number of events scheduled (stale ones included).
    var count: Int { heap.count }

    /// Schedules `kind` at `time`.
    mutating func schedule(at time: Micros, _ kind: RadioEventKind) {
        nextSequence &+= 1
        heap.append(RadioEvent(time: time, sequence: nextSequence, kind: kind))
        var child = heap.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard Self.precedes(heap[child], heap[parent]) else { break }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    /// Removes and returns the earliest event if it is due at or before `time`.
    mutating func popDue(notAfter time: Micros) -> RadioEvent? {
        guard let first = heap.first, first.time <= time else { return nil }
        let last = heap.removeLast()
        if !heap.isEmpty {
            heap[0] = last
            var parent = 0
            while true {
                let left = 2 * parent + 1, right = left + 1
                var smallest = parent
                if left < heap.count, Self.precedes(heap[left], heap[smallest]) { smallest = left }
                if right < heap.count, Self.precedes(heap[right], heap[smallest]) { smallest = right }
                guard smallest != parent else { break }
                heap.swapAt(parent, smallest)
                parent = smallest
            }
        }
        return first
    }

    /// Removes every event.
    mutating func removeAll() { heap.removeAll() }

    private static func precedes(_ a: RadioEvent, _ b: RadioEvent) -> Bool {
        a.time != b.time ? a.time < b.time : a.sequence < b.sequence
    }
}
