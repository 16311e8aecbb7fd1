import Testing
import BLECore
@testable import Capture

/// The handle search of ATT annotations compares octets, and finds what the character search
/// finds, combining marks and other graphemes beside the token included.
@Suite("ATT annotation handle search")
struct ATTAnnotationSearchTests {
    /// The UTF-8 offsets of a range, to compare ranges from two searches.
    static func offsets(_ range: Range<String.Index>?, in text: String) -> Range<Int>? {
        range.map { text.utf8.distance(from: text.utf8.startIndex, to: $0.lowerBound)..<text.utf8.distance(from: text.utf8.startIndex, to: $0.upperBound) }
    }

    @Test("the octet search finds the character search's first match, in text built from tokens, marks and prefixes")
    func sameAsCharacterSearch() {
        let pieces = ["handle 0x0003", "handle 0x00", "\u{301}", "é", "e", " ", "3", "\u{600}", "\u{1F600}", "handle 0x0003\u{301}", "0x0003", "\r\n"]
        var rng = SplitMix64(seed: 0xA77)
        for _ in 0..<3000 {
            var text = ""
            for _ in 0..<Int(rng.next() % 6) { text += pieces[Int(rng.next() % UInt64(pieces.count))] }
            for token in ["handle 0x0003", "handle 0x000a"] {
                let expected = Self.offsets(text.firstRange(of: token), in: text)
                #expect(Self.offsets(ATTAnnotation.firstRange(of: token, in: text), in: text) == expected, "\(text.debugDescription)")
            }
        }
        #expect(ATTAnnotation.firstRange(of: "handle 0x0003", in: "handle 0x0003\u{301} then handle 0x0003") != nil)
        #expect(ATTAnnotation.firstRange(of: "handle 0x0003", in: "") == nil)
    }
}
