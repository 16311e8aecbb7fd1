import Foundation

extension Transport {
    /// The words ``init(_:)`` takes, for messages: "kernel:hciN, user:hciN,
    /// h4:/dev/ttyX[@BAUD][,rtscts], tcp:HOST:PORT or virtual".
    public static let forms = "kernel:hciN, user:hciN, h4:/dev/ttyX[@BAUD][,rtscts], tcp:HOST:PORT or virtual"

    /// Parses one word of blectl's `--transport`:
    ///
    /// | word | transport |
    /// |---|---|
    /// | `kernel:hciN` or `kernel:N` | ``kernel(hci:)`` |
    /// | `user:hciN` or `user:N` | ``userChannel(hci:)`` |
    /// | `h4:/dev/ttyX[@BAUD][,rtscts]` | ``serial(path:baudRate:flowControl:)``, 1 000 000 baud and no flow control by default |
    /// | `tcp:HOST:PORT`, `tcp:[IPv6]:PORT` | ``tcp(host:port:)``, port 1...65535 |
    /// | `virtual` | ``virtual(_:)`` on a new radio of its own (paced at real time) |
    ///
    /// - Throws: ``BLEError/invalidArgument(_:)`` naming the forms and the word.
    public init(_ description: String) throws(BLEError) {
        let bad = BLEError.invalidArgument("a transport is \(Self.forms); got '\(description)'")
        if description == "virtual" {
            self = .virtual(VirtualRadio())
            return
        }
        guard let colon = description.firstIndex(of: ":") else { throw bad }
        let kind = description[..<colon], rest = description[description.index(after: colon)...]
        switch kind {
        case "kernel":
            guard let index = Self.adapterIndex(rest) else { throw bad }
            self = .kernel(hci: index)
        case "user":
            guard let index = Self.adapterIndex(rest) else { throw bad }
            self = .userChannel(hci: index)
        case "h4":
            var path = rest, baud = 1_000_000, flow = FlowControl.none
            if let comma = path.firstIndex(of: ",") {
                guard path[path.index(after: comma)...] == "rtscts" else { throw bad }
                flow = .rtsCts
                path = path[..<comma]
            }
            if let at = path.firstIndex(of: "@") {
                guard let rate = Int(path[path.index(after: at)...]) else { throw bad }
                baud = rate
                path = path[..<at]
            }
            guard path.hasPrefix("/") else { throw bad }
            self = .serial(path: String(path), baudRate: baud, flowControl: flow)
        case "tcp":
            guard let last = rest.lastIndex(of: ":"), let port = UInt16(rest[rest.index(after: last)...]), port > 0 else { throw bad }
            let host = rest[..<last].trimmingCharacters(in: ["[", "]"])
            guard !host.isEmpty else { throw bad }
            self = .tcp(host: String(host), port: port)
        default:
            throw bad
        }
    }

    /// The adapter index of "hciN" or "N", 0...65534 (0xFFFF is HCI_DEV_NONE, "no adapter", to
    /// the kernel); nil for anything else. blectl's `--hci` takes the same words.
    public static func adapterIndex(_ word: Substring) -> UInt16? {
        let digits = word.hasPrefix("hci") ? word.dropFirst(3) : word
        guard let index = UInt16(digits), index < 0xFFFF else { return nil }
        return index
    }
}
