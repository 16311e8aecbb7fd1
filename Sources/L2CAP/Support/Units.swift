import BLECore

/// Milliseconds for a count of 1.25 ms units (connection intervals), as "7.5" or "45" or "8.75".
func millisecondsFrom1250Microseconds(_ units: UInt16) -> String {
    let hundredths = Int(units) * 125
    let whole = hundredths / 100
    let fraction = hundredths % 100
    if fraction == 0 { return "\(whole)" }
    if fraction % 10 == 0 { return "\(whole).\(fraction / 10)" }
    return "\(whole).\(fraction < 10 ? "0" : "")\(fraction)"
}

/// "0x0040".
func cidText(_ cid: UInt16) -> String { Hex.hex16(cid) }

/// "0x0040, 0x0041".
func cidListText(_ cids: [UInt16]) -> String {
    cids.isEmpty ? "none" : cids.map(Hex.hex16).joined(separator: ", ")
}
