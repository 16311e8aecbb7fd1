/// A central subscribing to or unsubscribing from a characteristic's notifications or
/// indications (its Client Characteristic Configuration, Core v5.4, Vol 3, Part G, 3.3.3.3), from
/// ``PeripheralManager/subscriptions``. A central whose link drops is unsubscribed.
public enum SubscriptionEvent: Sendable {
    /// The central enabled notifications or indications.
    case subscribed(Central, MutableCharacteristic)
    /// The central disabled them, or its link dropped.
    case unsubscribed(Central, MutableCharacteristic)
}
