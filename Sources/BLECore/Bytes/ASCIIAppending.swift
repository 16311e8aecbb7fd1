extension String {
    /// Appends `octets`, which must be ASCII (hexadecimal digits, separators, punctuation), to the
    /// string, in pieces of at most 15 octets: each piece is a small string, stored inline, so the
    /// text costs no allocation of its own (only the string's growth, if any). For the text writers
    /// (``Hex/append(_:separator:to:)-(ArraySlice<UInt8>,_,_)``, ``BluetoothAddress/appendDescription(to:)``),
    /// which build lines of decoded packets without a string per field.
    ///
    /// - Precondition: every octet is below 0x80 (a piece cut inside a multi-octet UTF-8
    ///   sequence would not decode).
    @inlinable
    public mutating func appendASCII(_ octets: UnsafeBufferPointer<UInt8>) {
        var start = 0
        while start < octets.count {
            let end = Swift.min(start + 15, octets.count)
            self += String(decoding: UnsafeBufferPointer(rebasing: octets[start..<end]), as: UTF8.self)
            start = end
        }
    }
}
