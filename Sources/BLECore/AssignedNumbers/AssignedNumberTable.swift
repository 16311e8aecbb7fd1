/// One generated assigned-numbers table ("HEX<TAB>name" lines), indexed on first use without
/// building a dictionary or a string per entry: the keys in order and where each name lies in
/// the text, looked up by binary search. Indexing the company table (about 4,000 lines) costs
/// one pass over its octets, where a dictionary of strings cost a `blectl decode` of a small
/// capture a third of its time.
///
/// Lines whose key is not 1 to 4 hexadecimal digits followed by a tab are skipped; when a key
/// appears twice, the later line wins.
struct AssignedNumberTable: Sendable {
    /// The table's text, as generated.
    let text: String
    /// The table's text as UTF-8 octets, from which names are written.
    let utf8: [UInt8]
    /// The keys, ascending; equal keys in text order.
    let keys: [UInt16]
    /// For each key, the UTF-8 offsets of its name in ``text``: start, then end.
    let bounds: [(start: Int32, end: Int32)]

    /// Indexes `text`.
    init(_ text: String) {
        var text = text
        text.makeContiguousUTF8()
        var entries: [(key: UInt16, start: Int32, end: Int32)] = []
        text.utf8.withContiguousStorageIfAvailable { octets in
            var i = 0
            while i < octets.count {
                var lineEnd = i
                while lineEnd < octets.count && octets[lineEnd] != 0x0A { lineEnd += 1 }
                if let entry = Self.entry(octets, from: i, to: lineEnd) { entries.append(entry) }
                i = lineEnd + 1
            }
        }
        // The generated tables are in key order already: sorted only when they are not.
        let inOrder = zip(entries, entries.dropFirst()).allSatisfy { $0.key <= $1.key }
        let sorted = inOrder ? entries
            : entries.enumerated().sorted { ($0.element.key, $0.offset) < ($1.element.key, $1.offset) }.map(\.element)
        self.text = text
        utf8 = Array(text.utf8)
        keys = sorted.map(\.key)
        bounds = sorted.map { ($0.start, $0.end) }
    }

    /// The key and name bounds of the line `octets[start..<end]`, if it is "HEX<TAB>name".
    static func entry(_ octets: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int) -> (key: UInt16, start: Int32, end: Int32)? {
        var key: UInt32 = 0
        var i = start
        while i < end && octets[i] != 0x09 {
            let c = octets[i]
            let nibble: UInt8
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): nibble = c &- UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): nibble = c &- UInt8(ascii: "a") &+ 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): nibble = c &- UInt8(ascii: "A") &+ 10
            default: return nil
            }
            key = key << 4 | UInt32(nibble)
            i += 1
        }
        let digits = i - start
        guard i < end, digits >= 1, digits <= 4 else { return nil }
        return (UInt16(key), Int32(i + 1), Int32(end))
    }

    /// The name for `key`; nil when the table has none.
    subscript(key: UInt16) -> String? {
        name(key).map(String.init)
    }

    /// The name for `key` as a part of the table's text (no string of its own); nil when the
    /// table has none.
    func name(_ key: UInt16) -> Substring? {
        guard let (start, end) = nameBounds(key) else { return nil }
        let utf8 = text.utf8
        let from = utf8.index(utf8.startIndex, offsetBy: Int(start))
        let to = utf8.index(from, offsetBy: Int(end - start))
        return text[from..<to]
    }

    /// Appends the name for `key` to `out`, copied from the table's text.
    ///
    /// - Returns: false, writing nothing, when the table has none.
    func writeName(_ key: UInt16, to out: inout TextOutput) -> Bool {
        guard let (start, end) = nameBounds(key) else { return false }
        utf8.withUnsafeBufferPointer { out.write(octets: UnsafeBufferPointer(rebasing: $0[Int(start)..<Int(end)])) }
        return true
    }

    /// The UTF-8 offsets of the name for `key` in ``text``: of the last line with that key, by
    /// binary search; nil when there is none.
    private func nameBounds(_ key: UInt16) -> (start: Int32, end: Int32)? {
        // The last index whose key is <= `key`.
        let found: Int? = keys.withUnsafeBufferPointer { keys in
            var low = 0, high = keys.count
            while low < high {
                let mid = (low &+ high) >> 1
                if keys[mid] <= key { low = mid &+ 1 } else { high = mid }
            }
            return low > 0 && keys[low - 1] == key ? low - 1 : nil
        }
        return found.map { bounds[$0] }
    }
}
