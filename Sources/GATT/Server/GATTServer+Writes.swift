import ATT

/// The write requests and commands: Write Request, Write Command and Signed Write Command
/// (Core v5.4, Vol 3, Part F, 3.4.5; Part G, 4.9.1-4.9.3).
extension GATTServer {
    /// ATT_WRITE_REQ (Part F, 3.4.5.1): writes the value, then answers ATT_WRITE_RSP.
    ///
    /// Errors, naming the handle: Invalid Handle; the permission check; Invalid Attribute Value
    /// Length (0x0D) for a value longer than its fixed length or 512 octets; Value Not Allowed
    /// (0x13) for a CCCD bit the characteristic's properties do not permit or a Client Supported
    /// Features bit cleared; the handler's error for a dynamic value.
    func write(_ request: ATTWriteRequest, _ context: inout GATTRequestContext) async -> ATTPDU {
        let opcode = ATTWriteRequest.opcode, handle = request.handle
        guard let attribute = context.database.attribute(at: handle) else { return Self.error(opcode, handle, .invalidHandle) }
        if let code = await permissionError(attribute, .write, &context) { return Self.error(opcode, handle, code) }
        if let code = await writeValue(request.value, to: attribute, context) { return Self.error(opcode, handle, code) }
        return .writeResponse(ATTWriteResponse())
    }

    /// ATT_WRITE_CMD (Part F, 3.4.5.3): writes the value as a Write Request would; any failure
    /// is ignored, and nothing is answered.
    func writeCommand(_ command: ATTWriteCommand, connection id: UInt64) async {
        guard var context = await commandContext(id, length: command.encodedLength),
              let attribute = context.database.attribute(at: command.handle),
              await permissionError(attribute, .write, &context) == nil else { return }
        _ = await writeValue(command.value, to: attribute, context, withoutResponse: true)
    }

    /// ATT_SIGNED_WRITE_CMD (Part F, 3.4.5.4): written only when all of these hold, else ignored
    /// as 3.4.5.4 and Part C, 10.4.2 require:
    /// 1. a CSRK is configured for the peer (``GATTConnectionOptions/signingKey``);
    /// 2. the SignCounter is greater than the last one accepted (Part C, 10.4.2: a counter used
    ///    before is refused; the first may be any);
    /// 3. the MAC verifies (Part H, 2.4.5);
    /// 4. the handle is a characteristic value with the Authenticated Signed Writes property
    ///    (Part G, 3.3.1.1);
    /// 5. the write permission check passes, a CSRK from an authenticated pairing counting as
    ///    authentication (LE security mode 2 level 2, Part C, 10.2.2).
    /// A verified SignCounter is remembered even if the write then fails.
    func signedWriteCommand(_ command: ATTSignedWriteCommand, connection id: UInt64) async {
        guard states[id]?.signingKey != nil,
              var context = await commandContext(id, length: command.encodedLength),
              let state = states[id], let key = state.signingKey else { return }
        if let last = state.lastSignCounter, command.signature.signCounter <= last { return }
        guard key.verifies(command) else { return }
        states[id]?.lastSignCounter = command.signature.signCounter
        guard let attribute = context.database.attribute(at: command.handle),
              let characteristic = context.database.characteristic(valueHandle: command.handle),
              characteristic.properties.contains(.authenticatedSignedWrites) else { return }
        context.link.signedWithAuthenticatedKey = key.isAuthenticated
        guard await permissionError(attribute, .write, &context) == nil else { return }
        _ = await writeValue(command.value, to: attribute, context, withoutResponse: true)
    }
}
