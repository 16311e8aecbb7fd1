import BLECore
import Synchronization
@testable import ATT

/// A small GATT server for client tests: an ``ATTEngine`` handler that answers from a fixed
/// attribute list, as Core v5.4, Vol 3, Part F, 3.4 describes each request, with no
/// permissions. Tests inject errors and odd responses, read what was requested, and change the
/// table (to play a database change).
///
/// It is deliberately simple and separate from the real GATT server: it checks the client
/// against the specification's PDUs, not against our own server.
final class FakeGATTServer: Sendable {
    /// An answer given instead of the normal one to the next requests that match.
    struct Injection: Sendable {
        var matches: @Sendable (ATTPDU) -> Bool
        var answer: ATTPDU
        var remaining: Int
    }

    private struct State {
        var attributes: [FakeAttribute]
        var injections: [Injection] = []
        var received: [ATTPDU] = []
        var queue: [ATTPrepareWriteRequest] = []
        var lastGroupEndsAtFFFF = false
    }

    private let state: Mutex<State>

    init(_ table: FakeGATTTable) {
        state = Mutex(State(attributes: table.attributes))
    }

    /// The handler to give the server engine.
    var handler: ATTEngine.ServerHandler {
        { [self] pdu, engine in
            let mtu = engine.mtu
            return self.answer(pdu, mtu: mtu)
        }
    }

    // MARK: Test controls

    /// Every request and command served, in arrival order (Exchange MTU, which the engine
    /// answers, is not among them).
    var received: [ATTPDU] { state.withLock { $0.received } }

    /// How many requests or commands with `opcode` were served.
    func count(_ opcode: ATTOpcode) -> Int { received.filter { $0.opcode == opcode }.count }

    /// The Write Requests served to `handle`, as their values.
    func writes(to handle: UInt16) -> [[UInt8]] {
        received.compactMap { if case .writeRequest(let w) = $0, w.handle == handle { return w.value } else { return nil } }
    }

    /// The value at `handle`.
    func value(at handle: UInt16) -> [UInt8]? {
        state.withLock { $0.attributes.first { $0.handle == handle }?.value }
    }

    /// Replaces the table (a database change).
    func replaceTable(_ table: FakeGATTTable) {
        state.withLock { $0.attributes = table.attributes }
    }

    /// Whether the last service's group ends at 0xFFFF instead of its last attribute.
    func setLastGroupEndsAtFFFF(_ value: Bool) {
        state.withLock { $0.lastGroupEndsAtFFFF = value }
    }

    /// Answers the next `times` requests that `matches` with `answer`.
    func inject(_ answer: ATTPDU, times: Int = 1, when matches: @escaping @Sendable (ATTPDU) -> Bool) {
        state.withLock { $0.injections.append(Injection(matches: matches, answer: answer, remaining: times)) }
    }

    /// Answers the next `times` requests with `opcode` with ATT_ERROR_RSP `code` at `handle`.
    func fail(_ opcode: ATTOpcode, handle: UInt16 = 0, code: ATTErrorCode, times: Int = 1) {
        inject(.errorResponse(ATTErrorResponse(requestOpcodeInError: opcode, attributeHandleInError: handle, errorCode: code)),
               times: times) { $0.opcode == opcode }
    }

    // MARK: Serving

    /// The answer to `pdu` at ATT_MTU `mtu`; nil for a command.
    func answer(_ pdu: ATTPDU, mtu: Int) -> ATTPDU? {
        state.withLock { state in
            state.received.append(pdu)
            if let index = state.injections.firstIndex(where: { $0.matches(pdu) }) {
                let answer = state.injections[index].answer
                state.injections[index].remaining -= 1
                if state.injections[index].remaining <= 0 { state.injections.remove(at: index) }
                return answer
            }
            return Self.serve(pdu, mtu: mtu, state: &state)
        }
    }

    private static func error(_ request: ATTOpcode, _ handle: UInt16, _ code: ATTErrorCode) -> ATTPDU {
        .errorResponse(ATTErrorResponse(requestOpcodeInError: request, attributeHandleInError: handle, errorCode: code))
    }

    private static func serve(_ pdu: ATTPDU, mtu: Int, state: inout State) -> ATTPDU? {
        let attributes = state.attributes
        switch pdu {
        case .findInformationRequest(let r):
            guard r.startingHandle != 0, r.startingHandle <= r.endingHandle else { return error(pdu.opcode, r.startingHandle, .invalidHandle) }
            let found = attributes.filter { (r.startingHandle...r.endingHandle).contains($0.handle) }
            guard let first = found.first else { return error(pdu.opcode, r.startingHandle, .attributeNotFound) }
            let format: ATTFindInformationResponse.Format = first.type.width == .bits16 ? .uuid16 : .uuid128
            var list: [ATTFindInformationResponse.Information] = []
            for attribute in found {
                guard (attribute.type.width == .bits16) == (format == .uuid16) else { break }
                guard 2 + (list.count + 1) * format.pairLength <= mtu else { break }
                list.append(.init(handle: attribute.handle, type: attribute.type))
            }
            return .findInformationResponse(try! ATTFindInformationResponse(format: format, information: list))

        case .findByTypeValueRequest(let r):
            guard r.startingHandle != 0, r.startingHandle <= r.endingHandle else { return error(pdu.opcode, r.startingHandle, .invalidHandle) }
            var list: [ATTFindByTypeValueResponse.HandlesInformation] = []
            for attribute in attributes where (r.startingHandle...r.endingHandle).contains(attribute.handle)
                && attribute.type == r.attributeTypeUUID && attribute.value == r.attributeValue {
                guard 1 + (list.count + 1) * 4 <= mtu else { break }
                list.append(.init(foundAttributeHandle: attribute.handle,
                                  groupEndHandle: groupEnd(of: attribute.handle, in: attributes, lastAtFFFF: state.lastGroupEndsAtFFFF)))
            }
            guard !list.isEmpty else { return error(pdu.opcode, r.startingHandle, .attributeNotFound) }
            return .findByTypeValueResponse(try! ATTFindByTypeValueResponse(handlesInformation: list))

        case .readByTypeRequest(let r):
            guard r.startingHandle != 0, r.startingHandle <= r.endingHandle else { return error(pdu.opcode, r.startingHandle, .invalidHandle) }
            let limit = min(mtu - 4, ATTReadByTypeResponse.maximumValueLength)
            var list: [ATTReadByTypeResponse.AttributeData] = []
            for attribute in attributes where (r.startingHandle...r.endingHandle).contains(attribute.handle) && attribute.type == r.attributeType {
                let value = Array(attribute.value.prefix(limit))
                if let first = list.first, first.value.count != value.count { break }
                guard 2 + (list.count + 1) * (2 + value.count) <= mtu else { break }
                list.append(.init(handle: attribute.handle, value: value))
            }
            guard !list.isEmpty else { return error(pdu.opcode, r.startingHandle, .attributeNotFound) }
            return .readByTypeResponse(try! ATTReadByTypeResponse(attributeData: list))

        case .readByGroupTypeRequest(let r):
            guard r.startingHandle != 0, r.startingHandle <= r.endingHandle else { return error(pdu.opcode, r.startingHandle, .invalidHandle) }
            guard r.attributeGroupType == BluetoothUUID(0x2800) || r.attributeGroupType == BluetoothUUID(0x2801) else {
                return error(pdu.opcode, r.startingHandle, .unsupportedGroupType)
            }
            let limit = min(mtu - 6, ATTReadByGroupTypeResponse.maximumValueLength)
            var list: [ATTReadByGroupTypeResponse.AttributeData] = []
            for attribute in attributes where (r.startingHandle...r.endingHandle).contains(attribute.handle) && attribute.type == r.attributeGroupType {
                let value = Array(attribute.value.prefix(limit))
                if let first = list.first, first.value.count != value.count { break }
                guard 2 + (list.count + 1) * (4 + value.count) <= mtu else { break }
                list.append(.init(handle: attribute.handle,
                                  endGroupHandle: groupEnd(of: attribute.handle, in: attributes, lastAtFFFF: state.lastGroupEndsAtFFFF),
                                  value: value))
            }
            guard !list.isEmpty else { return error(pdu.opcode, r.startingHandle, .attributeNotFound) }
            return .readByGroupTypeResponse(try! ATTReadByGroupTypeResponse(attributeData: list))

        case .readRequest(let r):
            guard let attribute = attributes.first(where: { $0.handle == r.handle }) else { return error(pdu.opcode, r.handle, .invalidHandle) }
            return .readResponse(ATTReadResponse(value: Array(attribute.value.prefix(mtu - 1))))

        case .readBlobRequest(let r):
            guard let attribute = attributes.first(where: { $0.handle == r.handle }) else { return error(pdu.opcode, r.handle, .invalidHandle) }
            guard Int(r.valueOffset) <= attribute.value.count else { return error(pdu.opcode, r.handle, .invalidOffset) }
            return .readBlobResponse(ATTReadBlobResponse(partAttributeValue: Array(attribute.value.dropFirst(Int(r.valueOffset)).prefix(mtu - 1))))

        case .readMultipleRequest(let r):
            var values: [UInt8] = []
            for handle in r.setOfHandles {
                guard let attribute = attributes.first(where: { $0.handle == handle }) else { return error(pdu.opcode, handle, .invalidHandle) }
                values += attribute.value
            }
            return .readMultipleResponse(ATTReadMultipleResponse(setOfValues: Array(values.prefix(mtu - 1))))

        case .readMultipleVariableRequest(let r):
            var budget = mtu - 1
            var tuples: [ATTReadMultipleVariableResponse.LengthValueTuple] = []
            for handle in r.setOfHandles {
                guard let attribute = attributes.first(where: { $0.handle == handle }) else { return error(pdu.opcode, handle, .invalidHandle) }
                guard budget >= 2 else { break }
                let included = min(attribute.value.count, budget - 2)
                tuples.append(.init(valueLength: UInt16(attribute.value.count), includedValue: Array(attribute.value.prefix(included))))
                budget -= 2 + included
                if included < attribute.value.count { break }
            }
            return .readMultipleVariableResponse(try! ATTReadMultipleVariableResponse(tuples: tuples))

        case .writeRequest(let r):
            guard let index = attributes.firstIndex(where: { $0.handle == r.handle }) else { return error(pdu.opcode, r.handle, .invalidHandle) }
            state.attributes[index].value = r.value
            return .writeResponse(ATTWriteResponse())

        case .writeCommand(let c):
            if let index = attributes.firstIndex(where: { $0.handle == c.handle }) { state.attributes[index].value = c.value }
            return nil

        case .signedWriteCommand:
            return nil

        case .prepareWriteRequest(let r):
            guard attributes.contains(where: { $0.handle == r.handle }) else { return error(pdu.opcode, r.handle, .invalidHandle) }
            state.queue.append(r)
            return .prepareWriteResponse(ATTPrepareWriteResponse(echoing: r))

        case .executeWriteRequest(let r):
            let queue = state.queue
            state.queue = []
            if r.flags == .immediatelyWriteAllPendingPreparedValues {
                for prepared in queue {
                    guard let index = state.attributes.firstIndex(where: { $0.handle == prepared.handle }) else { continue }
                    let old = state.attributes[index].value
                    guard Int(prepared.valueOffset) <= old.count else { return error(pdu.opcode, prepared.handle, .invalidOffset) }
                    state.attributes[index].value = Array(old.prefix(Int(prepared.valueOffset))) + prepared.partAttributeValue
                }
            }
            return .executeWriteResponse(ATTExecuteWriteResponse())

        default:
            return nil
        }
    }

    /// The last handle of the group that `handle` (a service declaration) starts.
    private static func groupEnd(of handle: UInt16, in attributes: [FakeAttribute], lastAtFFFF: Bool) -> UInt16 {
        let serviceTypes = [BluetoothUUID(0x2800), BluetoothUUID(0x2801)]
        guard let start = attributes.firstIndex(where: { $0.handle == handle }) else { return handle }
        var end = handle
        for attribute in attributes[(start + 1)...] {
            if serviceTypes.contains(attribute.type) { return end }
            end = attribute.handle
        }
        return lastAtFFFF ? 0xFFFF : end
    }
}
