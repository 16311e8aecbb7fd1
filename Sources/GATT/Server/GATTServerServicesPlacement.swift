/// Where a ``GATTServer`` puts the GAP and GATT services it adds to an application's database
/// (Core v5.4, Vol 3, Part C, 12 and Part G, 7). The specification fixes no handles for them;
/// handles only run 0x0001...0xFFFF (Part F, 3.2.2) and services may not overlap (Part G, 3.1).
///
/// ```swift
/// let placement = GATTServerServicesPlacement(application: database)
/// let ranges = try placement.place([5, 10], fixed: nil, previous: [nil, nil])
/// // [0x0001...0x0005, 0x0006...0x000f] when the database starts at 0x0010
/// ```
///
/// Rules, in order:
/// 1. A fixed first handle (``GATTServerConfiguration/serverServicesHandle``) puts every added
///    service there, one after the other, or fails.
/// 2. Otherwise each service keeps its previous range (from the database served before a
///    ``GATTServer/replaceDatabase(_:)``) when that is still free, so Service Changed does not
///    move (Part G, 7.1); those are taken first.
/// 3. When none kept its range, a preferred first handle
///    (``GATTServerConfiguration/preferredServerServicesHandle``) puts them all there, one after
///    the other, if those handles are free.
/// 4. Each other service, in the order given, takes the first free range of its size, counting
///    from 0x0001: a gap between the application's services, or the handles after its last
///    one. A database that ends at 0xFFFF works as long as some gap fits.
struct GATTServerServicesPlacement: Sendable {
    /// The handle ranges taken, in ascending order: the application's services and any
    /// attribute outside them.
    private var taken: [ClosedRange<UInt16>]

    /// A placement among the handles `application` uses.
    init(application: GATTDatabase) {
        var taken = application.services.map(\.handleRange)
        for attribute in application.attributes where application.service(containing: attribute.handle) == nil {
            taken.append(attribute.handle...attribute.handle)
        }
        self.taken = taken.sorted { $0.lowerBound < $1.lowerBound }
    }

    /// The ranges for services of `counts` handles each.
    ///
    /// - Parameters:
    ///   - counts: each added service's number of handles, in the order to place them.
    ///   - fixed: the first handle of all of them, consecutive; nil to place each freely.
    ///   - preferred: the first handle of all of them, consecutive, when none keeps a previous
    ///     range and those handles are free; nil for none.
    ///   - previous: each service's range in the database served before, or nil.
    /// - Returns: one range per count, in the same order.
    /// - Throws: ``GATTServerError/serverServicesHandleInUse(handle:needed:)`` when `fixed` is
    ///   0x0000, or the handles from it are taken or pass 0xFFFF;
    ///   ``GATTServerError/noHandlesForServerServices(needed:)`` when no free range of a
    ///   service's size is left.
    func place(_ counts: [Int], fixed: UInt16?, preferred: UInt16? = nil,
               previous: [ClosedRange<UInt16>?]) throws(GATTServerError) -> [ClosedRange<UInt16>] {
        if let fixed {
            guard let ranges = consecutive(counts, from: fixed) else {
                throw .serverServicesHandleInUse(handle: fixed, needed: counts.reduce(0, +))
            }
            return ranges
        }
        var placement = self
        var ranges: [ClosedRange<UInt16>?] = Array(repeating: nil, count: counts.count)
        // The services that keep their handles take them first, so no moved one lands there.
        for (i, count) in counts.enumerated() {
            if i < previous.count, let kept = previous[i], kept.count == count, placement.isFree(kept) {
                placement.take(kept)
                ranges[i] = kept
            }
        }
        if let preferred, ranges.allSatisfy({ $0 == nil }), let there = consecutive(counts, from: preferred) {
            return there
        }
        for (i, count) in counts.enumerated() where ranges[i] == nil {
            guard let free = placement.firstFree(count) else { throw .noHandlesForServerServices(needed: count) }
            placement.take(free)
            ranges[i] = free
        }
        return ranges.compactMap { $0 }
    }

    /// Ranges of `counts` handles, one after the other from `first`, if all of those handles
    /// are free (and none is 0x0000 or past 0xFFFF).
    private func consecutive(_ counts: [Int], from first: UInt16) -> [ClosedRange<UInt16>]? {
        let needed = counts.reduce(0, +)
        guard first != 0, needed > 0, Int(first) + needed - 1 <= Int(UInt16.max),
              isFree(first...(first + UInt16(needed - 1))) else { return nil }
        var start = Int(first)
        return counts.map { count in
            defer { start += count }
            return UInt16(start)...UInt16(start + count - 1)
        }
    }

    /// The first `count` consecutive free handles from 0x0001, if any.
    func firstFree(_ count: Int) -> ClosedRange<UInt16>? {
        var start = 1
        for range in taken {
            if Int(range.lowerBound) - start >= count { break }
            start = max(start, Int(range.upperBound) + 1)
        }
        guard count > 0, start + count - 1 <= Int(UInt16.max) else { return nil }
        return UInt16(start)...UInt16(start + count - 1)
    }

    /// Whether no taken range overlaps `range`.
    func isFree(_ range: ClosedRange<UInt16>) -> Bool {
        range.lowerBound != 0 && !taken.contains { $0.overlaps(range) }
    }

    /// Marks `range` taken.
    private mutating func take(_ range: ClosedRange<UInt16>) {
        taken.append(range)
        taken.sort { $0.lowerBound < $1.lowerBound }
    }
}
