/// Builds a ``GATTDatabase`` from service definitions (Core v5.4, Vol 3, Part G, 3): allocates
/// or checks the handles, adds the declarations and the descriptors the specification
/// requires, validates everything, and computes the Database Hash.
///
/// ```swift
/// var builder = GATTDatabaseBuilder()
/// let battery = builder.addService(.secondary(BluetoothUUID(0x180F), characteristics: [
///     GATTCharacteristicDefinition(uuid: BluetoothUUID(0x2A19), properties: [.read, .notify], value: .fixed([87])),
/// ]))
/// builder.addService(.primary(BluetoothUUID(0x180D), includes: [GATTIncludeDefinition(battery)], characteristics: [
///     GATTCharacteristicDefinition(uuid: BluetoothUUID(0x2A37), properties: [.notify]),   // CCCD added
/// ]))
/// let database = try builder.build()
/// ```
///
/// The same definitions load from JSON (``GATTDatabase/init(jsonText:handlers:)``).
public struct GATTDatabaseBuilder: Sendable {
    /// The services added so far, in order.
    public private(set) var services: [GATTServiceDefinition]

    /// A builder holding `services`.
    public init(services: [GATTServiceDefinition] = []) { self.services = services }

    /// Adds a service and returns a reference to it for includes (its position in ``services``).
    @discardableResult
    public mutating func addService(_ service: GATTServiceDefinition) -> GATTServiceReference {
        services.append(service)
        return .index(services.count - 1)
    }

    /// The database the services describe.
    ///
    /// - Throws: a ``GATTDatabaseError`` naming the first definition at fault.
    public func build() throws(GATTDatabaseError) -> GATTDatabase {
        try GATTDatabaseLayout.build(services)
    }
}
