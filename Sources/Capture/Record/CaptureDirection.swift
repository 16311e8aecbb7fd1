/// Which way an HCI packet crossed the host-controller interface (Core v5.4, Vol 4, Part E, 5.4).
public enum CaptureDirection: Hashable, Sendable, CustomStringConvertible {
    /// Sent by the host: commands and outgoing data ("sent" in btsnoop, "TX" in the Linux monitor).
    case hostToController
    /// Received by the host: events and incoming data ("received" in btsnoop, "RX" in the Linux monitor).
    case controllerToHost
    /// The format does not say (LINKTYPE 187, link-layer captures, monitor records that are not packets).
    case unknown

    public var description: String {
        switch self {
        case .hostToController: return "host->controller"
        case .controllerToHost: return "controller->host"
        case .unknown: return "unknown direction"
        }
    }
}
