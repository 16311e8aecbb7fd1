import ATT
import BLECore

/// What one request is served with: the connection, its ATT_MTU, the database at the time it
/// arrived, and the link's security (asked of the bearer only when a permission needs it).
struct GATTRequestContext {
    let id: UInt64
    let peer: GATTPeer
    let mtu: Int
    let served: GATTServedDatabase
    var link: GATTPermissionCheck.Link

    var database: GATTDatabase { served.database }
}

/// Requests and commands in: the server handler of every attached engine (Core v5.4, Vol 3,
/// Part F, 3.3 and 3.4; Part G, 2.5.2.1).
extension GATTServer {
    /// The response to `pdu` from connection `id`; nil for a command, an undefined opcode (the
    /// engine answers Request Not Supported) or a detached connection.
    ///
    /// In order:
    /// 1. A command is carried out, or ignored when it cannot be (3.4.5.3, 3.4.5.4) or when a
    ///    change-unaware client that uses Robust Caching sends it (Part G, 2.5.2.1).
    /// 2. A request longer than the ATT_MTU is answered with Invalid PDU (Part F, 3.3: "the PDU is
    ///    the wrong length").
    /// 3. Robust Caching (Part G, 2.5.2.1): a change-unaware client that read the Database Hash
    ///    or was sent Database Out Of Sync becomes change-aware with this request; one that uses
    ///    Robust Caching and is still change-unaware gets Database Out Of Sync (0x12), once per
    ///    bearer, for a request "at any Attribute Handle or list of Attribute Handles", or a Read
    ///    By Type for a type other than «Include» or «Characteristic» over a range other than
    ///    0x0001-0xFFFF. Find Information, Find By Type Value and Read By Group Type never get it
    ///    (Part F, 3.4.3.1, 3.4.3.3, 3.4.4.9), nor does a discovery Read By Type.
    /// 4. The request's own rules (the extensions in this folder).
    func respond(to pdu: ATTPDU, connection id: UInt64) async -> ATTPDU? {
        guard let engine = states[id]?.engine else { return nil }
        switch pdu.kind {
        case .command:
            await perform(command: pdu, connection: id)
            return nil
        case .request:
            break
        default:
            return nil
        }
        let mtu = engine.mtu
        guard var state = states[id] else { return nil }
        if pdu.encodedLength > mtu {
            return Self.error(pdu.opcode, 0x0000, .invalidPDU)
        }
        // The client confirmed Service Changed before sending this request (2.5.2.1).
        if !state.isChangeAware, let confirmed = state.serviceChangedConfirmation.take(),
           state.confirmServiceChanged(confirmed, current: generation) {
            states[id] = state
        }
        if !state.isChangeAware, state.hashReadWhileUnaware || state.outOfSyncSent {
            state.becomeAware()
            states[id] = state
        }
        if state.usesRobustCaching, !state.isChangeAware, let handle = Self.outOfSyncHandle(pdu) {
            state.outOfSyncSent = true
            states[id] = state
            return Self.error(pdu.opcode, handle, .databaseOutOfSync)
        }
        var context = GATTRequestContext(id: id, peer: state.peer, mtu: mtu, served: served,
                                         link: GATTPermissionCheck.Link(engine: engine, hasKey: state.isBonded))
        switch pdu {
        case .findInformationRequest(let request): return findInformation(request, &context)
        case .findByTypeValueRequest(let request): return await findByTypeValue(request, &context)
        case .readByTypeRequest(let request): return await readByType(request, &context)
        case .readByGroupTypeRequest(let request): return await readByGroupType(request, &context)
        case .readRequest(let request): return await read(request, &context)
        case .readBlobRequest(let request): return await readBlob(request, &context)
        case .readMultipleRequest(let request): return await readMultiple(request, &context)
        case .readMultipleVariableRequest(let request): return await readMultipleVariable(request, &context)
        case .writeRequest(let request): return await write(request, &context)
        case .prepareWriteRequest(let request): return await prepareWrite(request, &context)
        case .executeWriteRequest(let request): return await executeWrite(request, &context)
        default: return nil   // Exchange MTU is the engine's; nothing else is a request.
        }
    }

    /// Carries out a command, ignoring it when it cannot be carried out.
    func perform(command pdu: ATTPDU, connection id: UInt64) async {
        guard let state = states[id], !state.isWithheld else { return }
        switch pdu {
        case .writeCommand(let command):
            await writeCommand(command, connection: id)
        case .signedWriteCommand(let command):
            await signedWriteCommand(command, connection: id)
        default:
            break   // an undefined command is ignored (3.3)
        }
    }

    /// The context for a command from connection `id`, or nil when it is detached or the command
    /// is longer than `extraLength` allows at the connection's ATT_MTU.
    func commandContext(_ id: UInt64, length: Int) async -> GATTRequestContext? {
        guard let engine = states[id]?.engine else { return nil }
        let mtu = engine.mtu
        guard length <= mtu, let state = states[id] else { return nil }
        return GATTRequestContext(id: id, peer: state.peer, mtu: mtu, served: served,
                                  link: GATTPermissionCheck.Link(engine: engine, hasKey: state.isBonded))
    }

    // MARK: Helpers

    /// ATT_ERROR_RSP for `request` naming `handle` and `code`.
    static func error(_ request: ATTOpcode, _ handle: UInt16, _ code: ATTErrorCode) -> ATTPDU {
        .errorResponse(ATTErrorResponse(requestOpcodeInError: request, attributeHandleInError: handle, errorCode: code))
    }

    /// The handle Database Out Of Sync names for `pdu`, when a change-unaware Robust Caching
    /// client must get it (Part G, 2.5.2.1); nil when the request is exempt.
    /// A request names its attributes by its Attribute Handles (the first is named); a Read By
    /// Type for another type over a narrower range, by its Starting Handle.
    static func outOfSyncHandle(_ pdu: ATTPDU) -> UInt16? {
        if case .readByTypeRequest(let r) = pdu {
            let discovery = r.attributeType == GATTAttributeType.include || r.attributeType == GATTAttributeType.characteristic
            let everything = r.startingHandle == 0x0001 && r.endingHandle == 0xFFFF
            return discovery || everything ? nil : r.startingHandle
        }
        return pdu.attributeHandles.first
    }
}
