import Foundation

/// A parsed JSON value, read with Foundation's `JSONDecoder` so the loader can walk it with
/// exact paths and reject unknown members.
indirect enum JSONNode: Decodable, Sendable {
    case null
    case bool(Bool)
    case integer(Int)
    case number(Double)
    case string(String)
    case array([JSONNode])
    case object([String: JSONNode])

    struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    init(from decoder: any Decoder) throws {
        if let keyed = try? decoder.container(keyedBy: Key.self) {
            var members: [String: JSONNode] = [:]
            for key in keyed.allKeys { members[key.stringValue] = try keyed.decode(JSONNode.self, forKey: key) }
            self = .object(members)
        } else if var unkeyed = try? decoder.unkeyedContainer() {
            var items: [JSONNode] = []
            while !unkeyed.isAtEnd { items.append(try unkeyed.decode(JSONNode.self)) }
            self = .array(items)
        } else {
            let single = try decoder.singleValueContainer()
            if single.decodeNil() { self = .null }
            else if let b = try? single.decode(Bool.self) { self = .bool(b) }
            else if let i = try? single.decode(Int.self) { self = .integer(i) }
            else if let d = try? single.decode(Double.self) { self = .number(d) }
            else { self = .string(try single.decode(String.self)) }
        }
    }

    /// Parses JSON text.
    ///
    /// - Throws: ``GATTDatabaseJSONError/syntax(reason:)``.
    static func parse(_ data: Data) throws(GATTDatabaseJSONError) -> JSONNode {
        do {
            return try JSONDecoder().decode(JSONNode.self, from: data)
        } catch let DecodingError.dataCorrupted(context) {
            let underlying = (context.underlyingError as NSError?)?.userInfo[NSDebugDescriptionErrorKey] as? String
            throw .syntax(reason: underlying ?? context.debugDescription)
        } catch {
            throw .syntax(reason: "\(error)")
        }
    }

    /// The JSON type's name, for errors.
    var typeName: String {
        switch self {
        case .null: return "null"
        case .bool: return "a boolean"
        case .integer, .number: return "a number"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }
}
