import BLECore

/// An HCI command: its opcode, its parameter layout, and the return parameters its Command
/// Complete event carries (Core v5.4, Vol 4, Part E, 4.4 and 7).
///
/// The parameters are the conforming value itself: ``HCIParameterLayout/init(decoding:)`` decodes
/// them from a packet's parameter octets and ``HCIParameterLayout/encoded`` encodes them.
///
/// ```swift
/// let packet = HCILESetScanEnable(leScanEnable: 1, filterDuplicates: 0).packet
/// packet.encoded                      // [0x0C, 0x20, 0x02, 0x01, 0x00]
/// let result = try HCILESetScanEnable.result(fromReturnParameters: [0x00])
/// ```
public protocol HCICommand: HCIParameterLayout, CustomStringConvertible {
    /// What Command Complete returns for this command: a layout that starts with Status.
    associatedtype ReturnParameters: HCIReturnParameters

    /// The command's opcode.
    static var opcode: HCIOpcode { get }

    /// The event that ends the command: Command Complete, or Command Status for commands whose
    /// outcome comes later in an event of its own (Vol 4, Part E, 4.4). Command Complete by default.
    static var completion: HCICommandCompletion { get }
}

/// The event that reports a command's outcome (Core v5.4, Vol 4, Part E, 4.4).
public enum HCICommandCompletion: Sendable, Hashable {
    /// HCI_Command_Complete, with the return parameters.
    case commandComplete
    /// HCI_Command_Status, then a later event (for example HCI_LE_Connection_Complete).
    case commandStatus
}

/// The return parameters of a command: a layout whose first field is Status.
public protocol HCIReturnParameters: HCIParameterLayout, CustomStringConvertible {
    /// The Status return parameter.
    var status: HCIStatus { get }
}

extension HCIReturnParameters {
    /// The fields as "name=value" pairs.
    public var description: String { fieldsDescription }
}

/// What a command's Return_Parameters said (Core v5.4, Vol 4, Part E, 7.7.14).
///
/// On a non-zero Status many controllers return only the Status octet, or return parameters
/// that are not meaningful; neither is an error here.
public enum HCICommandResult<ReturnParameters: HCIReturnParameters>: Hashable, Sendable {
    /// Status 0x00 and every return parameter, decoded.
    case success(ReturnParameters)
    /// A non-zero Status, with the return parameters decoded when all of them were present and
    /// well formed, nil when the controller sent only Status (or fewer octets than the layout).
    case failure(HCIStatus, ReturnParameters?)

    /// The Status return parameter.
    public var status: HCIStatus {
        switch self {
        case .success(let parameters): return parameters.status
        case .failure(let status, _): return status
        }
    }

    /// The return parameters on success.
    ///
    /// - Throws: the ``HCIStatus`` on failure.
    public func get() throws(HCIStatus) -> ReturnParameters {
        switch self {
        case .success(let parameters): return parameters
        case .failure(let status, _): throw status
        }
    }
}

extension HCICommand {
    /// Command Complete ends the command unless the command says otherwise.
    public static var completion: HCICommandCompletion { .commandComplete }

    /// The command as an HCI Command packet.
    public var packet: HCICommandPacket { HCICommandPacket(opcode: Self.opcode, parameters: encoded) }

    /// Decodes the command from `packet`.
    ///
    /// - Throws: ``BLEDecodingError/invalidValue(field:offset:reason:)`` for "Opcode" at offset 0
    ///   when the packet carries another command; otherwise the parameters' errors, with offsets
    ///   counted from the first octet of the packet (the parameters start at offset 3).
    public init(packet: HCICommandPacket) throws(BLEDecodingError) {
        guard packet.opcode == Self.opcode else {
            throw .invalidValue(field: "Opcode", offset: 0, reason: "\(packet.opcode) is not \(Self.opcode)")
        }
        do {
            try self.init(decoding: packet.parameters[...])
        } catch {
            throw error.shifted(by: HCICommandPacket.headerLength)
        }
    }

    /// Decodes the Return_Parameters of this command's Command Complete event.
    ///
    /// Status 0x00 needs every return parameter; a non-zero Status gives
    /// ``HCICommandResult/failure(_:_:)`` with the other parameters when they decode and nil when
    /// they are absent or short.
    ///
    /// - Throws: ``BLEDecodingError/truncated(field:offset:needed:available:)`` for "Status" when
    ///   there is no octet at all; for Status 0x00, the errors of the return parameter layout
    ///   (offsets from the first octet of `returnParameters`).
    public static func result(fromReturnParameters returnParameters: ArraySlice<UInt8>) throws(BLEDecodingError) -> HCICommandResult<ReturnParameters> {
        guard let first = returnParameters.first else {
            throw .truncated(field: "Status", offset: 0, needed: 1, available: 0)
        }
        let status = HCIStatus(rawValue: first)
        if status.isSuccess {
            return .success(try ReturnParameters(decoding: returnParameters))
        }
        return .failure(status, try? ReturnParameters(decoding: returnParameters))
    }

    /// Decodes the Return_Parameters of this command's Command Complete event.
    ///
    /// - Throws: as the slice overload does.
    public static func result(fromReturnParameters returnParameters: [UInt8]) throws(BLEDecodingError) -> HCICommandResult<ReturnParameters> {
        try result(fromReturnParameters: returnParameters[...])
    }

    /// The command's name and its parameters, as in
    /// "LE Set Scan Enable le_scan_enable=1 filter_duplicates=0".
    public var description: String {
        let fields = fieldsDescription
        return fields.isEmpty ? Self.opcode.description : "\(Self.opcode.description) \(fields)"
    }
}

/// The return parameters of the commands that return only Status, and of those that end with
/// Command Status (Core v5.4, Vol 4, Part E, 7.7.14 and 7.7.15).
public struct HCIStatusReturnParameters: HCIReturnParameters {
    /// Status: 0x00 when the command succeeded, an error code otherwise.
    public var status: HCIStatus

    /// Return parameters with `status`.
    public init(status: HCIStatus) { self.status = status }
    /// Every field zero or empty: the value decoding starts from.
    public init() { status = .success }

    /// Hands the fields above to `coder` in the order and sizes listed (see ``HCIParameterLayout/layout(_:)``).
    public mutating func layout<C: HCIParameterCoder>(_ coder: inout C) throws(C.Failure) {
        try coder.code(&status, "Status")
    }
}
