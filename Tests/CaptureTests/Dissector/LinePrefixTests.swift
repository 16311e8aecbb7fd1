import Testing
import BLECore
@testable import Capture

/// The start of a packet line, written into a ``TextOutput``: the same columns as the frame
/// number padded to 6 and ``CaptureText/seconds(_:)`` padded to 12.
@Suite("Packet line prefix")
struct LinePrefixTests {
    static func padded(_ text: String, _ width: Int) -> String {
        text.count >= width ? text : String(repeating: " ", count: width - text.count) + text
    }

    @Test("frame numbers and times of every magnitude, negative times, and widths past the columns")
    func sameColumns() {
        var rng = SplitMix64(seed: 0x11E)
        var times: [Int64] = [0, 1, -1, 999_999, 1_000_000, -1_000_001, 12_345_678_901, Int64.max, Int64.min + 1]
        var frames: [Int] = [1, 9, 10, 99_999, 100_000, 999_999, 1_000_000, 123_456_789]
        for _ in 0..<500 {
            times.append(Int64(bitPattern: rng.next()) >> Int64(rng.next() % 63))
            frames.append(Int(rng.next() % 10_000_000) + 1)
        }
        for (frame, time) in zip(frames + frames, times + times.reversed()) {
            let expected = Self.padded(String(frame), 6) + " " + Self.padded(CaptureText.seconds(time), 12) + " "
            #expect(CaptureText.linePrefix(frame: frame, microseconds: time) == expected, "\(frame) \(time)")
        }
    }
}
