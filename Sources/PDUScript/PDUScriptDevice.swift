/// The stack under test, as a script drives it: it is attached to one end of an in-memory
/// bearer, and `trigger` steps ask its application to do something.
public protocol PDUScriptDevice: Sendable {
    /// Performs the application action `action` with `arguments` (handles and values in
    /// hexadecimal, UUIDs as text) and returns its result in the script's words: `ok`,
    /// `value 4142`, `error 0x05`, `services 0x0001..0x0005 1800, ...`.
    ///
    /// - Throws: ``PDUScriptDeviceError`` when the action or its arguments are not understood.
    func perform(_ action: String, _ arguments: [String]) async throws(PDUScriptDeviceError) -> String

    /// Ends the device's session (closes its bearer), resuming anything still pending.
    func close() async
}

/// A trigger the device does not understand.
public struct PDUScriptDeviceError: Error, Hashable, Sendable, CustomStringConvertible {
    public var reason: String
    public init(_ reason: String) { self.reason = reason }
    public var description: String { reason }
}

/// Reading a script's arguments.
enum ScriptArguments {
    /// A handle written "0x0003" or "3".
    static func handle(_ text: String) throws(PDUScriptDeviceError) -> UInt16 {
        let digits = text.hasPrefix("0x") || text.hasPrefix("0X") ? String(text.dropFirst(2)) : text
        guard let value = UInt16(digits, radix: text.hasPrefix("0x") || text.hasPrefix("0X") ? 16 : 10) else {
            throw PDUScriptDeviceError("not a handle: \(text)")
        }
        return value
    }

    /// Octets from the remaining arguments ("01 02", "0102"); empty when there are none.
    static func octets(_ words: ArraySlice<String>) throws(PDUScriptDeviceError) -> [UInt8] {
        guard let octets = Hex.decode(words.joined(separator: " ")) else {
            throw PDUScriptDeviceError("not hexadecimal: \(words.joined(separator: " "))")
        }
        return octets
    }

    /// The argument at `index`, or an error naming what is missing.
    static func argument(_ arguments: [String], _ index: Int, _ what: String) throws(PDUScriptDeviceError) -> String {
        guard index < arguments.count else { throw PDUScriptDeviceError("missing \(what)") }
        return arguments[index]
    }
}

import BLECore
