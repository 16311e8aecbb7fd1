import BLECore

extension ByteReader {
    /// Checks that the rest of the PDU is a list of `entrySize`-octet entries, at least
    /// `minimumCount` of them, and returns how many there are. Reads nothing.
    ///
    /// - Throws: ``BLEDecodingError/truncated(field:offset:needed:available:)`` at the list's
    ///   offset when it holds fewer than `minimumCount` entries;
    ///   ``BLEDecodingError/invalidValue(field:offset:reason:)`` at the list's offset when its
    ///   length is not a multiple of `entrySize`.
    mutating func fixedSizeListCount(entrySize: Int, minimumCount: Int, field: String, entryName: String)
        throws(BLEDecodingError) -> Int
    {
        let available = remainingCount
        let minimum = entrySize &* minimumCount
        if available < minimum {
            throw .truncated(field: field, offset: offset, needed: minimum, available: available)
        }
        let (count, rest) = available.quotientAndRemainder(dividingBy: entrySize)
        if rest != 0 {
            throw .invalidValue(field: field, offset: offset,
                                reason: "\(available) octets do not divide into \(entrySize)-octet \(entryName)")
        }
        return count
    }
}
