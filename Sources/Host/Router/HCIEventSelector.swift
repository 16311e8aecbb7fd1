import BLECore
import HCI

/// Which HCI events a route of an ``HCICommandFlow`` takes: event codes, and LE Meta events by
/// subevent code (Core v5.4, Vol 4, Part E, 7.7 and 7.7.65).
///
/// An LE Meta event (0x3E) goes to a route that names its subevent, or that names the LE Meta
/// code itself (every subevent). Events may go to several routes; each gets its own copy.
///
/// ```swift
/// let selector: HCIEventSelector = [.event(.disconnectionComplete), .leMeta(.connectionComplete), .leMeta(.enhancedConnectionComplete)]
/// ```
public struct HCIEventSelector: Hashable, Sendable, ExpressibleByArrayLiteral, CustomStringConvertible {
    /// One thing a selector takes.
    public enum Element: Hashable, Sendable, CustomStringConvertible {
        /// Every event with this event code (for ``HCIEventCode/leMeta``: every subevent).
        case event(HCIEventCode)
        /// LE Meta events with this subevent code.
        case leMeta(LEMetaSubeventCode)

        /// The code, for logs: "0x05" or "LE 0x0A".
        public var description: String {
            switch self {
            case .event(let code): return "0x\(Hex.encode([code.rawValue]))"
            case .leMeta(let subevent): return "LE 0x\(Hex.encode([subevent.rawValue]))"
            }
        }
    }

    /// The event codes taken whole.
    public private(set) var eventCodes: Set<HCIEventCode> = []
    /// The LE Meta subevent codes taken.
    public private(set) var leSubevents: Set<LEMetaSubeventCode> = []

    /// A selector taking each of `elements`.
    public init(_ elements: [Element]) {
        for element in elements {
            switch element {
            case .event(let code): eventCodes.insert(code)
            case .leMeta(let subevent): leSubevents.insert(subevent)
            }
        }
    }

    /// A selector taking each of `elements`.
    public init(arrayLiteral elements: Element...) { self.init(elements) }

    /// Whether an event with `code` (and, for LE Meta, `subevent`) is taken.
    public func takes(_ code: HCIEventCode, subevent: LEMetaSubeventCode?) -> Bool {
        if eventCodes.contains(code) { return true }
        guard code == .leMeta, let subevent else { return false }
        return leSubevents.contains(subevent)
    }

    /// Whether `packet` is taken.
    public func takes(_ packet: HCIEventPacket) -> Bool {
        takes(packet.code, subevent: packet.leSubeventCode)
    }

    /// The codes, for logs: "0x05, LE 0x01".
    public var description: String {
        let codes = eventCodes.map(\.rawValue).sorted().map { Element.event(HCIEventCode(rawValue: $0)).description }
        let subevents = leSubevents.map(\.rawValue).sorted().map { Element.leMeta(LEMetaSubeventCode(rawValue: $0)).description }
        return (codes + subevents).joined(separator: ", ")
    }
}

extension HCIEventPacket {
    /// The LE Meta subevent code: the first parameter of an LE Meta event (Vol 4, Part E,
    /// 7.7.65); nil for other events and for an LE Meta event with no parameters.
    public var leSubeventCode: LEMetaSubeventCode? {
        guard code == .leMeta, let first = parameters.first else { return nil }
        return LEMetaSubeventCode(rawValue: first)
    }
}
