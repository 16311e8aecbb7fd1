/// HCI_Read_Local_Version_Information, opcode 0x1001 (Core v5.4, Vol 4, Part E, 7.4.1): the
/// controller's HCI and Link Layer versions and manufacturer. No parameters.
public struct HCIReadLocalVersionInformation: HCICommand {
    /// Opcode 0x1001.
    public static var opcode: HCIOpcode { .readLocalVersionInformation }

    /// The command, which has no parameters.
    public init() {}

    /// Hands the fields above to `coder` in the order and sizes listed (see ``HCIParameterLayout/layout(_:)``).
    public mutating func layout<C: HCIParameterCoder>(_ coder: inout C) throws(C.Failure) {}

    /// Status (1), HCI_Version (1), HCI_Subversion (2), LMP_Version (1), Company_Identifier (2),
    /// LMP_Subversion (2).
    public struct ReturnParameters: HCIReturnParameters {
        /// Status.
        public var status: HCIStatus
        /// HCI_Version: an assigned version number (0x0D is Core v5.4, 0x0C v5.3, 0x0B v5.2).
        public var hciVersion: UInt8
        /// HCI_Subversion: the manufacturer's revision.
        public var hciSubversion: UInt16
        /// LMP_Version (the Link Layer version on LE-only controllers), same numbering.
        public var lmpVersion: UInt8
        /// Company_Identifier: the manufacturer, from the assigned Company Identifiers.
        public var companyIdentifier: UInt16
        /// LMP_Subversion: the manufacturer's Link Layer revision.
        public var lmpSubversion: UInt16

        /// Return parameters from their values.
        public init(status: HCIStatus = .success, hciVersion: UInt8, hciSubversion: UInt16, lmpVersion: UInt8,
                    companyIdentifier: UInt16, lmpSubversion: UInt16) {
            self.status = status
            self.hciVersion = hciVersion
            self.hciSubversion = hciSubversion
            self.lmpVersion = lmpVersion
            self.companyIdentifier = companyIdentifier
            self.lmpSubversion = lmpSubversion
        }

        /// Every field zero or empty: the value decoding starts from.
        public init() { self.init(hciVersion: 0, hciSubversion: 0, lmpVersion: 0, companyIdentifier: 0, lmpSubversion: 0) }

        /// Hands the fields above to `coder` in the order and sizes listed (see ``HCIParameterLayout/layout(_:)``).
        public mutating func layout<C: HCIParameterCoder>(_ coder: inout C) throws(C.Failure) {
            try coder.code(&status, "Status")
            try coder.code(&hciVersion, "HCI_Version", format: .hex)
            try coder.code(&hciSubversion, "HCI_Subversion", format: .hex)
            try coder.code(&lmpVersion, "LMP_Version", format: .hex)
            try coder.code(&companyIdentifier, "Company_Identifier", format: .hex)
            try coder.code(&lmpSubversion, "LMP_Subversion", format: .hex)
        }
    }
}
