import BLECore
import Foundation

/// Loading and writing databases in the JSON format of docs/gatt-database-json.md.
public enum GATTDatabaseJSON {
    /// The service definitions a JSON database describes, before the builder checks them.
    ///
    /// - Parameters:
    ///   - data: the UTF-8 JSON text, strict RFC 8259 (BLECore's `JSONReader`: no trailing commas,
    ///     comments or duplicate member names).
    ///   - handlers: the dynamic values the `handler` members may name, by name.
    /// - Throws: ``GATTDatabaseJSONError/syntax(_:)`` with the line and column when the text is not
    ///   JSON; otherwise a ``GATTDatabaseJSONError`` naming the member at fault by its path.
    public static func serviceDefinitions(json data: [UInt8],
                                          handlers: [String: GATTValueHandlers] = [:]) throws(GATTDatabaseJSONError) -> [GATTServiceDefinition] {
        let root: JSONValue
        do { root = try JSONReader().value(parsing: data) } catch { throw .syntax(error) }
        return try GATTDatabaseJSONReader(handlers: handlers).services(root)
    }

    /// The database as a JSON value, every handle and descriptor explicit, members in a fixed
    /// order.
    ///
    /// - Throws: ``GATTDatabaseJSONError/notRepresentable(path:reason:)`` for dynamic handlers
    ///   without a name.
    public static func jsonValue(_ database: GATTDatabase) throws(GATTDatabaseJSONError) -> JSONValue {
        try GATTDatabaseJSONWriter().database(database)
    }
}

extension GATTDatabase {
    /// Loads a database from JSON octets.
    ///
    /// - Parameter handlers: the dynamic values the `handler` members may name.
    /// - Throws: a ``GATTDatabaseJSONError`` naming the member at fault (the builder's
    ///   ``GATTDatabaseError`` wrapped in ``GATTDatabaseJSONError/database(_:)``, whose path is
    ///   the same member's).
    public init(json data: [UInt8], handlers: [String: GATTValueHandlers] = [:]) throws(GATTDatabaseJSONError) {
        let root: JSONValue
        do { root = try JSONReader().value(parsing: data) } catch { throw .syntax(error) }
        let top = try GATTDatabaseJSONReader(handlers: handlers).database(root)
        do {
            self = try GATTDatabaseLayout.build(top.services)
        } catch {
            throw .database(error)
        }
        addsServerServices = top.addsServerServices
    }

    /// Loads a database from JSON text. See ``init(json:handlers:)``.
    public init(jsonText: String, handlers: [String: GATTValueHandlers] = [:]) throws(GATTDatabaseJSONError) {
        try self.init(json: Array(jsonText.utf8), handlers: handlers)
    }

    /// Loads a database from a JSON file. See ``init(json:handlers:)``.
    ///
    /// - Throws: also ``GATTDatabaseJSONError/unreadableFile(path:reason:)``.
    public init(jsonFile path: String, handlers: [String: GATTValueHandlers] = [:]) throws(GATTDatabaseJSONError) {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            // The system's reason ("No such file or directory"), not Foundation's wrapper sentence.
            let posix = (error as NSError).userInfo[NSUnderlyingErrorKey] as? POSIXError
            throw .unreadableFile(path: path, reason: posix.map { String(cString: strerror($0.code.rawValue)) } ?? error.localizedDescription)
        }
        try self.init(json: Array(data), handlers: handlers)
    }

    /// The database as indented JSON text that loads back to the same attributes (every handle
    /// and descriptor explicit).
    ///
    /// - Throws: ``GATTDatabaseJSONError/notRepresentable(path:reason:)`` for dynamic handlers
    ///   without a name.
    public func jsonText() throws(GATTDatabaseJSONError) -> String {
        try GATTDatabaseJSON.jsonValue(self).prettyText()
    }
}
