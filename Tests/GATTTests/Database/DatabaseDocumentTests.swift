import Foundation
import Testing

/// docs/gatt-database-json.md's table of examples names every database in
/// Fixtures/gatt-databases/, and only those, so it cannot fall behind the folder.
@Suite("docs/gatt-database-json.md")
struct DatabaseDocumentTests {
    static let document = "docs/gatt-database-json.md"

    @Test("the table of examples has one row per file in Fixtures/gatt-databases/ and no row for a file that is not there")
    func examplesTableListsTheFolder() throws {
        let root = URL(fileURLWithPath: DBTest.fixtures).deletingLastPathComponent().deletingLastPathComponent()
        let lines = try String(contentsOf: root.appendingPathComponent(Self.document), encoding: .utf8)
            .split(separator: "\n", omittingEmptySubsequences: false)
        let files = try FileManager.default.contentsOfDirectory(atPath: DBTest.fixtures).filter { $0.hasSuffix(".json") }
        try #require(!files.isEmpty, "Fixtures/gatt-databases/ has no .json file")
        #expect(DBTest.fixtureNames == files.sorted(), "the round-trip test runs on every file in the folder")

        let introduction = try #require(lines.firstIndex { $0.contains("Examples are in `Fixtures/gatt-databases/`") },
                                        "\(Self.document) no longer says 'Examples are in `Fixtures/gatt-databases/`' before its table of examples")
        let header = try #require(lines[introduction...].firstIndex { $0.hasPrefix("| file |") },
                                  "\(Self.document): no '| file | ... |' table after line \(introduction + 1)")
        var rows: [String: Int] = [:]
        for index in (header + 2)..<lines.count {
            guard lines[index].hasPrefix("|") else { break }
            let cell = lines[index].split(separator: "|", omittingEmptySubsequences: false)[1].trimmingCharacters(in: .whitespaces)
            guard cell.hasPrefix("`"), cell.hasSuffix("`") else {
                Issue.record("\(Self.document) line \(index + 1): the first cell should be a file name in backquotes, not \(cell)")
                continue
            }
            let name = String(cell.dropFirst().dropLast())
            #expect(rows[name] == nil, "\(Self.document) line \(index + 1): \(name) has a row already, at line \(rows[name] ?? 0)")
            rows[name] = index + 1
            #expect(files.contains(name), "\(Self.document) line \(index + 1): Fixtures/gatt-databases/\(name) does not exist")
        }
        for missing in Set(files).subtracting(rows.keys).sorted() {
            Issue.record("\(Self.document): the table of examples (from line \(header + 1)) has no row for Fixtures/gatt-databases/\(missing)")
        }
    }
}
