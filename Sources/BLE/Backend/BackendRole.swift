/// Which manager a mode's backend serves: a ``CentralManager``'s ends links it did not make; a
/// ``PeripheralManager``'s accepts the links centrals make and hands them on.
enum BackendRole: Sendable {
    case central
    case peripheral
}
