import BLECore
import Capture
import FuzzSupport

/// What every capture reader must do with any file, whatever its format: the capture harnesses'
/// shared check.
///
/// - The walk ends, with at most one record per `minimumRecordLength` octets after the file
///   header, numbered 0, 1, 2, ... in file order, none longer than the file.
/// - Reading the same octets again gives the same records and the same error (no hidden state).
/// - An error's offset lies inside the file; after an error or the end, the reader returns nil.
/// - Every record and packet has a description.
public enum CaptureReadProperties {
    /// Reads `bytes`, checks the properties, and returns the file and what it held; nil when the
    /// file header itself was refused (with an error offset inside the file).
    public static func check(_ bytes: [UInt8], format: CaptureFormat, minimumRecordLength: Int) -> (CaptureFile, CaptureReadResult)? {
        let file: CaptureFile
        do {
            file = try CaptureFile(bytes: bytes)
        } catch {
            FuzzProperty.require((0...bytes.count).contains(error.offset), "header error offset \(error.offset) of \(bytes.count) octets: \(error)")
            FuzzProperty.require(!error.description.isEmpty, "empty error description")
            return nil
        }
        FuzzProperty.require(file.format == format, "a \(format) file read as \(file.format)")
        let result = file.readAll()
        FuzzProperty.require(result.records.count <= bytes.count / minimumRecordLength,
                             "\(result.records.count) records in \(bytes.count) octets")
        for (index, record) in result.records.enumerated() {
            FuzzProperty.require(record.index == index, "record \(index) numbered \(record.index)")
            FuzzProperty.require(record.capturedLength <= bytes.count, "record \(index) of \(record.capturedLength) octets in a \(bytes.count)-octet file")
            FuzzProperty.require(!record.description.isEmpty && !record.packet.description.isEmpty, "record \(index) without a description")
            _ = record.timestampNanoseconds
        }
        if let error = result.error {
            FuzzProperty.require((0...bytes.count).contains(error.offset), "error offset \(error.offset) of \(bytes.count) octets: \(error)")
            FuzzProperty.require(!error.description.isEmpty, "empty error description")
        }
        let again = file.readAll()
        FuzzProperty.require(again.records == result.records && again.error == result.error, "a second reading of the same file differs")
        var reader = file.makeReader()
        var count = 0
        while true {
            do {
                guard try reader.next() != nil else { break }
                count += 1
            } catch {
                break
            }
        }
        FuzzProperty.require(count == result.records.count, "the reader gave \(count) records, readAll \(result.records.count)")
        FuzzProperty.require((try? reader.next()) == nil, "the reader goes on after its end")
        return (file, result)
    }
}
