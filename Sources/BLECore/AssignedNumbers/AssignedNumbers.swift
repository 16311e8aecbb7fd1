/// Names from the Bluetooth SIG Assigned Numbers document: GATT services, characteristics,
/// descriptors and declarations, units, member service UUIDs, AD types, company identifiers
/// and appearance values.
///
/// The tables are generated from the SIG's own YAML files (see ``sourceVersion`` and
/// `Scripts/generate-assigned-numbers.py`); each is indexed on first use, and a lookup is a
/// binary search.
public enum AssignedNumbers {
    /// The SIG name of a 16-bit UUID, searching declarations, services, characteristics,
    /// descriptors, units and member services in that order; nil when unassigned.
    public static func uuidName(_ uuid16: UInt16) -> String? {
        Tables.uuidName(uuid16)
    }

    /// The name of a GATT service (for example 0x180D, "Heart Rate"), or a member service UUID.
    public static func serviceName(_ uuid16: UInt16) -> String? {
        Tables.services[uuid16] ?? Tables.memberServices[uuid16]
    }

    /// The name of a GATT characteristic (for example 0x2A37, "Heart Rate Measurement").
    public static func characteristicName(_ uuid16: UInt16) -> String? { Tables.characteristics[uuid16] }

    /// The name of a GATT descriptor (for example 0x2902, "Client Characteristic Configuration").
    public static func descriptorName(_ uuid16: UInt16) -> String? { Tables.descriptors[uuid16] }

    /// The name of a GATT attribute-type declaration (for example 0x2800, "Primary Service").
    public static func declarationName(_ uuid16: UInt16) -> String? { Tables.declarations[uuid16] }

    /// The name of a unit (for example 0x272F, "Celsius temperature (degree Celsius)").
    public static func unitName(_ uuid16: UInt16) -> String? { Tables.units[uuid16] }

    /// The name of an AD type (for example 0x09, "Complete Local Name").
    public static func adTypeName(_ type: UInt8) -> String? { Tables.adTypes[UInt16(type)] }

    /// The company that owns a company identifier (for example 0x004C, "Apple, Inc.").
    public static func companyName(_ identifier: UInt16) -> String? { Tables.companies[identifier] }

    /// ``uuidName(_:)`` as a part of the assigned-numbers text, without a string of its own
    /// (for text writers that append it to a line).
    public static func uuidNameText(_ uuid16: UInt16) -> Substring? { Tables.uuidNameText(uuid16) }

    /// ``companyName(_:)`` as a part of the assigned-numbers text, without a string of its own
    /// (for text writers that append it to a line).
    public static func companyNameText(_ identifier: UInt16) -> Substring? { Tables.companies.name(identifier) }

    /// The URI scheme name string for a URI code point (for example 0x0017, "https:"); the
    /// empty string for 0x0001, the "empty scheme name" (CSS Part A, 1.18).
    public static func uriSchemeName(_ codePoint: UInt16) -> String? { Tables.uriSchemes[codePoint] }

    /// The name of a 16-bit appearance value, "Category" or "Category: Sub-category"
    /// (Core Specification Supplement, Part A, 1.12). An unknown sub-category falls back to
    /// its category's name.
    public static func appearanceName(_ value: UInt16) -> String? {
        Tables.appearances[value] ?? Tables.appearances[value & ~0x3F]
    }
}

/// The generated text tables, each indexed once, on first use (Swift initialises static
/// properties lazily and thread-safely), by ``AssignedNumberTable``.
enum Tables {
    static let declarations = AssignedNumberTable(AssignedNumbers.declarationsText)
    static let services = AssignedNumberTable(AssignedNumbers.servicesText)
    static let characteristics = AssignedNumberTable(AssignedNumbers.characteristicsText)
    static let descriptors = AssignedNumberTable(AssignedNumbers.descriptorsText)
    static let units = AssignedNumberTable(AssignedNumbers.unitsText)
    static let memberServices = AssignedNumberTable(AssignedNumbers.memberServicesText)
    static let adTypes = AssignedNumberTable(AssignedNumbers.adTypesText)
    static let companies = AssignedNumberTable(AssignedNumbers.companiesText)
    static let appearances = AssignedNumberTable(AssignedNumbers.appearancesText)
    static let uriSchemes = AssignedNumberTable(AssignedNumbers.uriSchemesText)

    /// The name of a 16-bit UUID from the first table that has it: declarations, services,
    /// characteristics, descriptors, units, member services (earlier tables win on the rare
    /// collisions).
    static func uuidName(_ key: UInt16) -> String? {
        uuidNameText(key).map(String.init)
    }

    /// ``uuidName(_:)`` as a part of its table's text.
    static func uuidNameText(_ key: UInt16) -> Substring? {
        declarations.name(key) ?? services.name(key) ?? characteristics.name(key) ?? descriptors.name(key) ?? units.name(key)
            ?? memberServices.name(key)
    }
}
