import Capture

extension OutputBuffer {
    /// Ends the output of `decode` and `monitor`: every packet line flushed, then (with
    /// `summary`, unless standard output's reader went away) the dissector's report as its lines
    /// or, with `json`, as one JSON line, flushed too.
    ///
    /// - Returns: false when writing standard output failed (the error is printed, naming
    ///   `command`); the caller then exits 1.
    mutating func finishWithSummary(of dissector: Dissector, summary: Bool, json: Bool, command: String) -> Bool {
        // Every packet line is out before the summary is built.
        flush()
        if summary && !isClosed {
            let report = dissector.report
            if json {
                var text = ""
                report.json.write(to: &text)
                line(text)
            } else {
                for line in report.renderedLines { self.line(line) }
            }
        }
        flush()
        if let lost = failure {
            printError("blectl \(command): writing the output failed: \(lost)")
            return false
        }
        return true
    }
}
