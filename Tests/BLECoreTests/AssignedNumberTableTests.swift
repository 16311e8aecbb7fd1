import Testing
@testable import BLECore

/// The assigned-numbers tables, indexed without a dictionary: every 16-bit key gives the name a
/// dictionary built from the same generated text gives.
@Suite("AssignedNumberTable")
struct AssignedNumberTableTests {
    /// The dictionary the tables were once parsed into: one "HEX<TAB>name" line each, a later
    /// duplicate replacing an earlier one.
    static func dictionary(_ text: String) -> [UInt16: String] {
        var table: [UInt16: String] = [:]
        for line in text.split(separator: "\n") {
            guard let tab = line.firstIndex(of: "\t"), let key = UInt16(line[..<tab], radix: 16) else { continue }
            table[key] = String(line[line.index(after: tab)...])
        }
        return table
    }

    static let texts: [(String, String)] = [
        ("declarations", AssignedNumbers.declarationsText), ("services", AssignedNumbers.servicesText),
        ("characteristics", AssignedNumbers.characteristicsText), ("descriptors", AssignedNumbers.descriptorsText),
        ("units", AssignedNumbers.unitsText), ("member services", AssignedNumbers.memberServicesText),
        ("AD types", AssignedNumbers.adTypesText), ("companies", AssignedNumbers.companiesText),
        ("appearances", AssignedNumbers.appearancesText), ("URI schemes", AssignedNumbers.uriSchemesText),
    ]

    @Test("every key of every generated table names what a dictionary of the same text names", arguments: texts)
    func sameAsDictionary(name: String, text: String) {
        let table = AssignedNumberTable(text)
        let reference = Self.dictionary(text)
        #expect(!reference.isEmpty)
        var mismatches: [UInt16] = []
        for key in UInt16.min...UInt16.max where table[key] != reference[key] { mismatches.append(key) }
        #expect(mismatches.isEmpty, "\(name): \(mismatches.prefix(5))")
    }

    @Test("malformed lines are skipped, a later duplicate wins, names keep their UTF-8")
    func malformedLinesAndDuplicates() {
        let table = AssignedNumberTable("0001\tOne\nzz\tNot hex\n12345\tToo long\n\tNo key\nno tab\n0001\tUno\n00ff\tCafé\n")
        #expect(table[0x0001] == "Uno")
        #expect(table[0x00FF] == "Café")
        #expect(table[0x2345] == nil)
        #expect(table.keys == [0x0001, 0x0001, 0x00FF])
        #expect(AssignedNumberTable("")[0] == nil)
    }

    @Test("16-bit UUID names come from the first table that has them")
    func uuidNameOrder() {
        #expect(AssignedNumbers.uuidName(0x2800) == "Primary Service")
        #expect(AssignedNumbers.uuidName(0x180D) == "Heart Rate")
        #expect(AssignedNumbers.uuidName(0x2A37) == "Heart Rate Measurement")
        #expect(AssignedNumbers.uuidName(0x2902) == "Client Characteristic Configuration")
        #expect(AssignedNumbers.uuidName(0x0000) == nil)
    }

    @Test("the six UUID tables indexed as one name every key as the first table that has it, and write that name")
    func uuidTablesAsOne() {
        let tables = [AssignedNumbers.declarationsText, AssignedNumbers.servicesText, AssignedNumbers.characteristicsText,
                      AssignedNumbers.descriptorsText, AssignedNumbers.unitsText, AssignedNumbers.memberServicesText]
            .map(AssignedNumberTable.init)
        var mismatches: [UInt16] = []
        for key in UInt16.min...UInt16.max {
            let first = tables.lazy.compactMap { $0[key] }.first
            var out = TextOutput()
            let found = AssignedNumbers.writeUUIDName(key, to: &out)
            if AssignedNumbers.uuidName(key) != first || found != (first != nil) || out.string != (first ?? "") {
                mismatches.append(key)
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(5))")
    }

    @Test("company names are written from the table's text; an unassigned identifier writes nothing")
    func companyNames() {
        var out = TextOutput()
        #expect(AssignedNumbers.writeCompanyName(0x004C, to: &out))
        #expect(out.string == "Apple, Inc.")
        var none = TextOutput()
        #expect(!AssignedNumbers.writeCompanyName(0xFFFF, to: &none) && none.isEmpty)
    }
}
