/// Which way a captured packet went: across the host-controller interface (Core v5.4, Vol 4,
/// Part E, 5.4), or, over the air, between the central and the peripheral of a connection
/// (Core v5.4, Vol 6, Part B, 4.5).
public enum CaptureDirection: Hashable, Sendable, CustomStringConvertible {
    /// Sent by the host: commands and outgoing data ("sent" in btsnoop, "TX" in the Linux monitor).
    case hostToController
    /// Received by the host: events and incoming data ("received" in btsnoop, "RX" in the Linux monitor).
    case controllerToHost
    /// Over the air, from the central to the peripheral (a LINKTYPE 256 pseudo-header says so).
    case centralToPeripheral
    /// Over the air, from the peripheral to the central.
    case peripheralToCentral
    /// The format does not say (LINKTYPE 187, link-layer captures without a pseudo-header,
    /// monitor records that are not packets).
    case unknown

    /// The opposite direction; unknown stays unknown, so the requests and responses of a capture
    /// without directions still pair up.
    public var reversed: CaptureDirection {
        switch self {
        case .hostToController: return .controllerToHost
        case .controllerToHost: return .hostToController
        case .centralToPeripheral: return .peripheralToCentral
        case .peripheralToCentral: return .centralToPeripheral
        case .unknown: return .unknown
        }
    }

    public var description: String {
        switch self {
        case .hostToController: return "host->controller"
        case .controllerToHost: return "controller->host"
        case .centralToPeripheral: return "central->peripheral"
        case .peripheralToCentral: return "peripheral->central"
        case .unknown: return "unknown direction"
        }
    }
}
