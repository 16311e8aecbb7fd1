/// What a link must offer before an attribute may be read or written (Core v5.4, Vol 3,
/// Part F, 3.2.5: encryption, authentication and authorization permissions, and the encryption
/// key size).
///
/// An access that is permitted but requires nothing is ``open``. The server checks the
/// requirements in the order of Core v5.4, Vol 3, Part C, 10.3.1 (Table 10.2): encryption
/// (Insufficient Authentication 0x05 when the peer has no key, Insufficient Encryption 0x0F
/// when it has one), then key size, then authentication, then authorization last (the
/// application's decision, Part C, 10.5); see `GATTPermissionCheck`. Each has its own ATT error
/// code.
public struct GATTAccess: Sendable, Hashable, CustomStringConvertible {
    /// The link must be encrypted (else Insufficient Encryption, 0x0F, or Insufficient
    /// Authentication, 0x05, when the peer has no key to encrypt with).
    public var encryption: Bool
    /// The link must be encrypted with an authenticated (MITM-protected) key (else Insufficient
    /// Authentication, 0x05).
    public var authentication: Bool
    /// The application must have authorised the peer (else Insufficient Authorization, 0x08).
    public var authorization: Bool
    /// The shortest encryption key the link may use, in octets: 0 for no requirement, else
    /// 7...16 (else Encryption Key Size Too Short, 0x0C). The builder rejects other values.
    public var minimumKeySize: Int

    /// An access with the given requirements; none by default.
    public init(encryption: Bool = false, authentication: Bool = false, authorization: Bool = false,
                minimumKeySize: Int = 0) {
        self.encryption = encryption
        self.authentication = authentication
        self.authorization = authorization
        self.minimumKeySize = minimumKeySize
    }

    /// Permitted with no requirement.
    public static let open = GATTAccess()
    /// Permitted on an encrypted link.
    public static let encrypted = GATTAccess(encryption: true)
    /// Permitted on a link encrypted with an authenticated key.
    public static let authenticated = GATTAccess(encryption: true, authentication: true)

    /// The valid values of ``minimumKeySize`` other than 0: 7...16 octets (Vol 3, Part H, 2.3.4).
    public static let keySizeRange: ClosedRange<Int> = 7...16

    /// Whether no requirement is set.
    public var isOpen: Bool { self == .open }

    /// "open", or the requirements: "encryption, authentication, key size >= 16".
    public var description: String {
        var parts: [String] = []
        if encryption { parts.append("encryption") }
        if authentication { parts.append("authentication") }
        if authorization { parts.append("authorization") }
        if minimumKeySize != 0 { parts.append("key size >= \(minimumKeySize)") }
        return parts.isEmpty ? "open" : parts.joined(separator: ", ")
    }
}

/// The access permissions of one attribute (Core v5.4, Vol 3, Part F, 3.2.5): whether it may be
/// read and written, and what each requires.
///
/// `nil` means not permitted: a read answers Read Not Permitted (0x02), a write Write Not
/// Permitted (0x03), before any security requirement is looked at.
public struct GATTPermissions: Sendable, Hashable, CustomStringConvertible {
    /// The requirements for reading; nil when the attribute cannot be read.
    public var read: GATTAccess?
    /// The requirements for writing; nil when the attribute cannot be written.
    public var write: GATTAccess?

    /// Permissions with the given read and write access; neither permitted by default.
    public init(read: GATTAccess? = nil, write: GATTAccess? = nil) {
        self.read = read
        self.write = write
    }

    /// Neither read nor write permitted.
    public static let none = GATTPermissions()
    /// Read permitted with no requirement; write not permitted. Every declaration has these
    /// (Part G, 3.1, 3.2, 3.3.1).
    public static let readOnly = GATTPermissions(read: .open)
    /// Write permitted with no requirement; read not permitted.
    public static let writeOnly = GATTPermissions(write: .open)
    /// Read and write permitted with no requirement.
    public static let readWrite = GATTPermissions(read: .open, write: .open)

    /// Whether reading is permitted (perhaps with requirements).
    public var isReadable: Bool { read != nil }
    /// Whether writing is permitted (perhaps with requirements).
    public var isWritable: Bool { write != nil }

    /// "read (open), write (encryption)", "read (open)", "none".
    public var description: String {
        var parts: [String] = []
        if let read { parts.append("read (\(read))") }
        if let write { parts.append("write (\(write))") }
        return parts.isEmpty ? "none" : parts.joined(separator: ", ")
    }
}
