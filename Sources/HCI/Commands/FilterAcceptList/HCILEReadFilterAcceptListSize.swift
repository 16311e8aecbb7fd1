/// HCI_LE_Read_Filter_Accept_List_Size, opcode 0x200F (Core v5.4, Vol 4, Part E, 7.8.14): how
/// many devices the controller's Filter Accept List holds. No parameters.
public struct HCILEReadFilterAcceptListSize: HCICommand {
    /// Opcode 0x200F.
    public static var opcode: HCIOpcode { .leReadFilterAcceptListSize }

    /// The command, which has no parameters.
    public init() {}

    /// Hands the fields above to `coder` in the order and sizes listed (see ``HCIParameterLayout/layout(_:)``).
    public mutating func layout<C: HCIParameterCoder>(_ coder: inout C) throws(C.Failure) {}

    /// Status (1), Filter_Accept_List_Size (1).
    public struct ReturnParameters: HCIReturnParameters {
        /// Status.
        public var status: HCIStatus
        /// Filter_Accept_List_Size: the number of entries, 1...255.
        public var filterAcceptListSize: UInt8

        /// Return parameters from their values.
        public init(status: HCIStatus = .success, filterAcceptListSize: UInt8) {
            self.status = status
            self.filterAcceptListSize = filterAcceptListSize
        }

        /// Every field zero or empty: the value decoding starts from.
        public init() { self.init(filterAcceptListSize: 0) }

        /// Hands the fields above to `coder` in the order and sizes listed (see ``HCIParameterLayout/layout(_:)``).
        public mutating func layout<C: HCIParameterCoder>(_ coder: inout C) throws(C.Failure) {
            try coder.code(&status, "Status")
            try coder.code(&filterAcceptListSize, "Filter_Accept_List_Size")
        }
    }
}
