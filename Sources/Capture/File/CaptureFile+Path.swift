import Foundation

extension CaptureFile {
    /// Reads the file at `path` into memory and recognises its format.
    ///
    /// - Throws: ``CaptureError/unreadableFile(path:reason:)`` when the file cannot be read;
    ///   otherwise the errors of ``init(bytes:)``.
    public init(contentsOf path: String) throws(CaptureError) {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path), options: .mappedIfSafe)
        } catch {
            throw .unreadableFile(path: path, reason: error.localizedDescription)
        }
        try self.init(bytes: [UInt8](data))
    }
}
