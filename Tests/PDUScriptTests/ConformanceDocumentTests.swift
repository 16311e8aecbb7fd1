import Foundation
import Testing

/// docs/conformance.md against Fixtures/gatt-scripts/: its counts per group and its tables name
/// the scripts that are there, so neither can drift from the folders.
@Suite("docs/conformance.md")
struct ConformanceDocumentTests {
    static let root = FixtureScriptTests.root
    static let document = "docs/conformance.md"

    /// One role's section of the document: its heading, the folder of its scripts, and its lines.
    struct Section {
        var role: String
        var folder: String
        /// The section's lines with their 1-based line numbers in the document.
        var lines: [(number: Int, text: Substring)]
    }

    /// The server and client sections, each from its `## ` heading to the next.
    static func sections() throws -> [Section] {
        let text = try String(contentsOf: root.appendingPathComponent(document), encoding: .utf8)
        let lines = Array(text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()).map { (number: $0.offset + 1, text: $0.element) }
        let roles = [("Server", "server"), ("Client", "client")]
        return try roles.map { heading, folder in
            let start = try #require(lines.firstIndex { $0.text.hasPrefix("## \(heading) ") }, "\(document) has no '## \(heading) ...' section")
            let end = lines[(start + 1)...].firstIndex { $0.text.hasPrefix("## ") } ?? lines.endIndex
            return Section(role: folder, folder: "Fixtures/gatt-scripts/\(folder)", lines: Array(lines[start..<end]))
        }
    }

    /// The script files in `folder`, by name without `.script`.
    static func scripts(in folder: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent(folder).path)
            .filter { $0.hasSuffix(".script") }.map { String($0.dropLast(".script".count)) }.sorted()
    }

    /// A script's group: the third part of a SIG name (GATT_SR_GAR_BI-01-C: GAR), or LB for the
    /// project's own scripts (LB_SR_...).
    static func group(_ script: String) -> String {
        script.hasPrefix("LB_") ? "LB" : String(script.split(separator: "_").dropFirst(2).first ?? "")
    }

    @Test("each role's counts per group, and in all, are the numbers of scripts in its folder")
    func countsPerGroup() throws {
        for section in try Self.sections() {
            let files = try Self.scripts(in: section.folder)
            let truth = Dictionary(grouping: files, by: Self.group).mapValues(\.count)
            let line = try #require(section.lines.first { $0.text.contains("Counts: ") },
                                    "\(Self.document): the \(section.role) section has no 'Counts: GROUP N, ... (N in all).' line; the truth is \(Self.render(truth, total: files.count))")
            let text = line.text[line.text.range(of: "Counts: ")!.upperBound...]
            let total = try #require(text.range(of: " in all)").map { text[..<$0.lowerBound] }?.split(separator: "(").last.flatMap { Int($0) },
                                     "\(Self.document) line \(line.number): the counts end without '(N in all)'")
            let listed = text.prefix { $0 != "(" }.split(separator: ",").map { $0.split(separator: " ") }
            var claimed: [String: Int] = [:]
            for entry in listed {
                try #require(entry.count == 2, "\(Self.document) line \(line.number): '\(entry.joined(separator: " "))' is not 'GROUP N'")
                claimed[String(entry[0])] = Int(entry[1])
            }
            for group in Set(claimed.keys).union(truth.keys).sorted() {
                #expect(claimed[group] == truth[group],
                        "\(Self.document) line \(line.number): \(section.role) \(group) is \(claimed[group].map(String.init) ?? "missing") there; \(section.folder) has \(truth[group] ?? 0) \(group) scripts")
            }
            #expect(total == files.count, "\(Self.document) line \(line.number): '\(total) in all'; \(section.folder) has \(files.count) scripts")
        }
    }

    @Test("each role's table has one row per script in its folder, naming its test ID, and no row for a script that is not there")
    func tablesNameTheScripts() throws {
        for section in try Self.sections() {
            let files = Set(try Self.scripts(in: section.folder))
            var rows: [String: Int] = [:]
            for line in section.lines where line.text.hasPrefix("| ") {
                let cells = line.text.split(separator: "|", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
                guard cells.count > 3, cells[2].hasPrefix("`"), cells[2].hasSuffix(".script`") else { continue }
                let script = String(cells[2].dropFirst().dropLast(".script`".count))
                #expect(rows[script] == nil, "\(Self.document) line \(line.number): \(script) has a row already, at line \(rows[script] ?? 0)")
                rows[script] = line.number
                #expect(files.contains(script), "\(Self.document) line \(line.number): \(section.folder)/\(script).script does not exist")
                let id = script.hasPrefix("LB_") ? "—" : script.replacingOccurrences(of: "_", with: "/")
                #expect(cells[1] == id, "\(Self.document) line \(line.number): the test ID of \(script) is \(id), the row says \(cells[1])")
            }
            for missing in files.subtracting(rows.keys).sorted() {
                Issue.record("\(Self.document): the \(section.role) table has no row for \(section.folder)/\(missing).script")
            }
        }
    }

    /// Counts as the document writes them: "GAC 1, GAD 6, ... (N in all)".
    static func render(_ counts: [String: Int], total: Int) -> String {
        counts.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ") + " (\(total) in all)"
    }
}
