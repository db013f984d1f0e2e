/// The timeline's two packed sections: one bar per network transfer and one per visible row's wait for its
/// poster, each packed into at most `maximumPackedRows` rows.
extension TimelineSVG {
    /// One bar per transfer: queued and latency in grey, bytes flowing in blue, failures in red, a cut
    /// where a cancelled one stopped.
    mutating func drawTransfers() {
        let barHeight = 6.0
        let pitch = 8.0
        body.label("network · \(events.transfers.count) transfers", x: 12, y: y + 12, className: "g")
        body.label("grey: queued + latency", x: 12, y: y + 25, className: "s")
        body.label("blue: bytes flowing", x: 12, y: y + 37, className: "s")
        let top = y + 2
        var packer = IntervalPacker(maximumRows: Self.maximumPackedRows, gap: 2)
        let order = events.transfers.indices.sorted {
            (events.transfers[$0].start, $0) < (events.transfers[$1].start, $1)
        }
        for index in order {
            let transfer = events.transfers[index]
            let start = x(transfer.start)
            let end = max(x(transfer.end), start + 1)
            let row = packer.place(start: start, end: end)
            let barTop = top + Double(row) * pitch
            let responseX = transfer.response.map { min(end, x($0)) } ?? end
            var classes = "transfer"
            var outcome = "status \(transfer.status.map(String.init) ?? "none: the run ended first")"
            if transfer.cancelled {
                classes += " cancelled"
                outcome = "cancelled"
            } else if transfer.failed {
                classes += " failed"
                outcome =
                    transfer.status == 0 ? "failed (no answer)" : "failed with status \(transfer.status ?? 0)"
            }
            let name = transfer.url.split(separator: "/").last.map(String.init) ?? transfer.url
            let tooltip =
                "\(name) · \(outcome) · \(transfer.bytes) bytes · requested at "
                + "\(Self.milliseconds(transfer.start)) on \(transfer.thread) · "
                + "\(Self.milliseconds(transfer.end - transfer.start)) in all"
            body.beginGroup(className: classes, tooltip: tooltip)
            if responseX > start {
                body.rect(x: start, y: barTop, width: responseX - start, height: barHeight, className: "lat")
            }
            if end > responseX {
                let flowClass = transfer.failed ? "fail" : transfer.cancelled ? "cut" : "flow"
                body.rect(
                    x: responseX, y: barTop, width: end - responseX, height: barHeight, className: flowClass)
            } else if transfer.failed {
                body.rect(x: end - 1.5, y: barTop, width: 1.5, height: barHeight, className: "fail")
            }
            if transfer.cancelled {
                body.line(x1: end, y1: barTop - 1.5, x2: end, y2: barTop + barHeight + 1.5, className: "cx")
            }
            body.endGroup()
        }
        y = top + max(5, Double(packer.rowCount)) * pitch + 10
    }

    /// Each visible row's wait from placeholder to poster (or until it left the screen), packed in rows.
    mutating func drawRowWaits() {
        let barHeight = 9.0
        let pitch = 11.0
        body.label("rows waiting for a poster", x: 12, y: y + 12, className: "g")
        body.label("placeholder → poster", x: 12, y: y + 25, className: "s")
        let top = y + 2
        if events.waits.isEmpty {
            body.label("no row ever showed the placeholder", x: x(0) + 4, y: top + 12, className: "s")
        }
        var packer = IntervalPacker(maximumRows: Self.maximumPackedRows, gap: 2)
        for wait in events.waits {
            let start = x(wait.span.start)
            let end = max(x(wait.span.end), start + 1)
            let row = packer.place(start: start, end: end)
            let barTop = top + Double(row) * pitch
            let outcome: String
            switch wait.outcome {
            case .poster: outcome = "then its poster"
            case .failed: outcome = "then the failure image"
            case .abandoned: outcome = "then it left the screen"
            case .unfinished: outcome = "when the run ended"
            }
            body.rect(
                x: start, y: barTop, width: end - start, height: barHeight, className: wait.outcome.rawValue,
                tooltip:
                    "row \(wait.row): placeholder for \(Self.milliseconds(wait.span.end - wait.span.start)), "
                    + outcome)
            let label = String(wait.row)
            if end - start >= Double(label.count) * 5 + 4 {
                body.label(label, x: start + 2, y: barTop + 7.5, className: "n")
            }
        }
        y = top + max(3, Double(packer.rowCount)) * pitch + 8
    }
}
