import ATT

/// ``ATTErrorCode`` as a Swift error, so the value handlers of a dynamic attribute can throw the
/// exact code the server puts in ATT_ERROR_RSP (Core v5.4, Vol 3, Part F, 3.4.1.1), with typed
/// throws: `throws(ATTErrorCode)`.
///
/// This conformance belongs in the ATT target, beside ``ATTErrorCode`` itself; it lives here
/// until the ATT target declares it (then delete this file).
extension ATTErrorCode: Error {}
