import Foundation

/// Which of the two server-initiated updates a subscription asks for (Core v5.4, Vol 3, Part G,
/// 3.3.3.3): the Client Characteristic Configuration's Notification bit or its Indication bit.
public enum ValueUpdateKind: Sendable, Hashable, CustomStringConvertible {
    /// Characteristic Value Notification (Part G, 4.10, ATT_HANDLE_VALUE_NTF): not confirmed.
    case notification
    /// Characteristic Value Indication (Part G, 4.11, ATT_HANDLE_VALUE_IND): each one
    /// confirmed by the stack (ATT_HANDLE_VALUE_CFM) before the server may send the next.
    case indication

    /// "notification" or "indication".
    public var description: String { self == .notification ? "notification" : "indication" }
}

/// One value a peripheral sent for a characteristic, from ``Peripheral/valueUpdates(for:)``:
/// the value and whether it came as a notification or an indication.
public struct ValueUpdate: Sendable, Hashable {
    /// The characteristic's value as sent (0 to ATT_MTU - 3 octets).
    public let value: Data
    /// Which PDU carried it: ATT_HANDLE_VALUE_NTF or ATT_HANDLE_VALUE_IND (Part F, 3.4.7).
    public let kind: ValueUpdateKind

    /// An update of `value` that came as `kind`.
    public init(value: Data, kind: ValueUpdateKind) {
        self.value = value
        self.kind = kind
    }
}
