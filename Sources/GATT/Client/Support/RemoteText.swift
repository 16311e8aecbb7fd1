/// Formatting shared by the client's descriptions.
enum RemoteText {
    /// "0x002a".
    static func hex16(_ value: UInt16) -> String {
        let digits = String(value, radix: 16)
        return "0x" + String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
}
