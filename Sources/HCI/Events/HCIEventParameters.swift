import BLECore

/// The parameters of one HCI event, with its Event_Code (Core v5.4, Vol 4, Part E, 7.7).
public protocol HCIEventParameters: HCIParameterLayout, CustomStringConvertible {
    /// The event's code.
    static var eventCode: HCIEventCode { get }
}

extension HCIEventParameters {
    /// The event as an HCI Event packet.
    public var packet: HCIEventPacket { HCIEventPacket(code: Self.eventCode, parameters: encoded) }

    /// The event's name and its parameters on one line.
    public var description: String { "\(Self.eventCode) \(fieldsDescription)" }
}

/// The parameters of one HCI_LE_Meta subevent after its Subevent_Code
/// (Core v5.4, Vol 4, Part E, 7.7.65).
public protocol LEMetaSubeventParameters: HCIParameterLayout, CustomStringConvertible {
    /// The subevent's code.
    static var subeventCode: LEMetaSubeventCode { get }
}

extension LEMetaSubeventParameters {
    /// The subevent as an HCI Event packet: HCI_LE_Meta with Subevent_Code, then the parameters.
    public var packet: HCIEventPacket {
        HCIEventPacket(code: .leMeta, parameters: [Self.subeventCode.rawValue] + encoded)
    }

    /// The subevent's name and its parameters on one line.
    public var description: String { "\(Self.subeventCode) \(fieldsDescription)" }
}
