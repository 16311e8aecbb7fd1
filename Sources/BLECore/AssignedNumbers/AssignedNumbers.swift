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

    /// Appends ``uuidName(_:)`` to `out` from the assigned-numbers text, without a string of its
    /// own (for lines that print it).
    ///
    /// - Returns: false, writing nothing, when the UUID has no name.
    @discardableResult
    public static func writeUUIDName(_ uuid16: UInt16, to out: inout TextOutput) -> Bool {
        Tables.uuids.writeName(uuid16, to: &out)
    }

    /// Appends ``companyName(_:)`` to `out` from the assigned-numbers text, without a string of
    /// its own (for lines that print it).
    ///
    /// - Returns: false, writing nothing, when the identifier is unassigned.
    @discardableResult
    public static func writeCompanyName(_ identifier: UInt16, to out: inout TextOutput) -> Bool {
        Tables.companies.writeName(identifier, to: &out)
    }

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

    /// The six tables a 16-bit UUID's name comes from, indexed as one: their texts joined in
    /// reverse order of precedence, so that the later line that wins a duplicate key is the one
    /// from the first table that has it (declarations, services, characteristics, descriptors,
    /// units, member services). One binary search instead of up to six.
    static let uuids = AssignedNumberTable([
        AssignedNumbers.memberServicesText, AssignedNumbers.unitsText, AssignedNumbers.descriptorsText,
        AssignedNumbers.characteristicsText, AssignedNumbers.servicesText, AssignedNumbers.declarationsText,
    ].joined(separator: "\n"))

    /// The name of a 16-bit UUID from the first table that has it: declarations, services,
    /// characteristics, descriptors, units, member services (earlier tables win on the rare
    /// collisions).
    static func uuidName(_ key: UInt16) -> String? { uuids[key] }
}
