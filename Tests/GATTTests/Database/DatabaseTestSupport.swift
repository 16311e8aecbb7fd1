import Foundation
import Testing
import BLECore
@testable import GATT

/// Helpers for the database tests, in a namespace so they cannot collide with other suites of
/// the GATTTests target.
enum DBTest {
    /// Octets from hexadecimal text with spaces and `#` comments; fails the test on bad text.
    static func hex(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) -> [UInt8] {
        guard let bytes = Hex.decode(text) else {
            Issue.record("bad hex fixture: \(text)", sourceLocation: sourceLocation)
            return []
        }
        return bytes
    }

    /// The 16-bit UUID `value`.
    static func uuid(_ value: UInt16) -> BluetoothUUID { BluetoothUUID(value) }

    /// A UUID from text that must parse.
    static func uuid(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) -> BluetoothUUID {
        guard let uuid = BluetoothUUID(text) else {
            Issue.record("bad UUID fixture: \(text)", sourceLocation: sourceLocation)
            return BluetoothUUID(0)
        }
        return uuid
    }

    /// The repository's Fixtures/gatt-databases folder, found from this file's path.
    static let fixtures: String = {
        var parts = String(#filePath).split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(4)   // Tests/GATTTests/Database/DatabaseTestSupport.swift
        return parts.joined(separator: "/") + "/Fixtures/gatt-databases"
    }()

    /// The file names of the JSON databases in ``fixtures``, sorted (empty when the folder cannot be read).
    static let fixtureNames: [String] = {
        ((try? FileManager.default.contentsOfDirectory(atPath: fixtures)) ?? []).filter { $0.hasSuffix(".json") }.sorted()
    }()

    /// Loads a database fixture by file name.
    static func load(_ name: String, handlers: [String: GATTValueHandlers] = [:]) throws -> GATTDatabase {
        try GATTDatabase(jsonFile: fixtures + "/" + name, handlers: handlers)
    }

    /// One attribute as comparable values: handle, type, permissions, and the fixed value (nil
    /// for a dynamic one).
    struct Row: Hashable, CustomStringConvertible {
        var handle: UInt16
        var type: BluetoothUUID
        var permissions: GATTPermissions
        var value: [UInt8]?
        var description: String {
            "0x" + String(handle, radix: 16) + " " + type.description + " " + (value.map { Hex.encode($0) } ?? "dynamic")
        }
    }

    /// The attribute table of `database` as rows.
    static func rows(_ database: GATTDatabase) -> [Row] {
        database.attributes.map { Row(handle: $0.handle, type: $0.type, permissions: $0.permissions, value: $0.value.fixedValue) }
    }

    /// Builds `services`, expecting exactly `error`.
    static func expectError(_ error: GATTDatabaseError, _ services: [GATTServiceDefinition],
                            sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(throws: error, sourceLocation: sourceLocation) { try GATTDatabaseBuilder(services: services).build() }
    }

    /// Loads `json`, expecting exactly `error`.
    static func expectJSONError(_ error: GATTDatabaseJSONError, _ json: String,
                                handlers: [String: GATTValueHandlers] = [:],
                                sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(throws: error, sourceLocation: sourceLocation) { try GATTDatabase(jsonText: json, handlers: handlers) }
    }
}
