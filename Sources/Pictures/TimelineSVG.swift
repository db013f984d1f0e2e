import Report

/// Draws a whole run as one SVG picture, time left to right (`--timeline FILE.svg`).
///
/// From the top: the scroll state with the scroll stops, the main thread (how busy, and each hitch in red
/// with its length), one lane per queue worker thread (operations, with decode, filter and disk work),
/// one bar per network transfer (packed into a bounded number of rows), each visible row's wait for its
/// poster, markers for memory warnings and relaunches, a time axis in seconds and a legend. Items
/// thinner than a pixel are merged or widened to one pixel, so long runs stay small and legible.
package struct TimelineSVG {
    /// The width of the label column on the left.
    static let labelWidth = 190.0
    /// The room right of the plot.
    static let rightMargin = 30.0
    /// The plot width aimed at, whatever the run's length.
    static let targetPlotWidth = 1600.0
    /// The most rows the network transfers and the row waits each use.
    static let maximumPackedRows = 24

    let result: RunResult
    /// Its trace, paired up.
    let events: TimelineEvents
    /// The horizontal scale.
    let pixelsPerSecond: Double
    /// The plot's width in pixels.
    let plotWidth: Double
    /// The picture's body, drawn top to bottom.
    var body = SVGWriter()
    /// The next free height.
    var y = 0.0

    /// The SVG text of a run's timeline (the run must have kept its trace).
    package static func render(_ result: RunResult) -> String {
        var drawing = TimelineSVG(result)
        return drawing.draw()
    }

    /// Prepares the drawing of a run.
    init(_ result: RunResult) {
        self.result = result
        events = TimelineEvents(result)
        let seconds = max(0.001, Double(events.duration) / 1_000_000)
        pixelsPerSecond = min(400, max(10, Self.targetPlotWidth / seconds))
        plotWidth = (seconds * pixelsPerSecond).rounded(.up)
    }

    /// The horizontal position of a virtual time.
    func x(_ time: Int64) -> Double {
        Self.labelWidth + Double(time) / 1_000_000 * pixelsPerSecond
    }

    /// A duration in milliseconds with one decimal, for labels.
    static func milliseconds(_ micros: Int64) -> String {
        MetricValue.milliseconds(micros).formatted + " ms"
    }

    /// Draws every section and wraps them in the SVG document.
    mutating func draw() -> String {
        drawHeader()
        let chartTop = y
        drawScrollBand()
        drawMainThread()
        drawWorkerLanes()
        drawTransfers()
        drawRowWaits()
        let chartBottom = y
        drawMarkers(top: chartTop, bottom: chartBottom)
        let grid = axisAndGrid(top: chartTop, bottom: chartBottom)
        y += 34
        drawLegend()
        let width = Self.labelWidth + plotWidth + Self.rightMargin
        let height = y + 10
        var document = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        document +=
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(SVGWriter.number(width))\" "
            + "height=\"\(SVGWriter.number(height))\" viewBox=\"0 0 \(SVGWriter.number(width)) "
            + "\(SVGWriter.number(height))\">\n"
        document += "<style>\n\(Self.styleSheet)\n</style>\n"
        document += "<rect class=\"bg\" x=\"0\" y=\"0\" width=\"100%\" height=\"100%\"/>\n"
        document += grid
        document += body.text
        document += "</svg>\n"
        return document
    }

    /// The classes every element uses, so elements carry no colours of their own.
    static let styleSheet = """
        text{font:11px sans-serif;fill:#222}.h{font-size:15px;font-weight:bold}.s{fill:#555}
        .g{font-weight:bold;fill:#333}.n{font-size:8px;fill:#fff}.hl{font-size:9px;fill:#c00;font-weight:bold}
        .sl{font-size:9px;fill:#1a7f37}.ax{font-size:10px;fill:#555}.bg{fill:#fff}.lane{fill:#f4f5f7}
        .grid{stroke:#e2e4e8;stroke-width:1}.axis{stroke:#888;stroke-width:1}
        .dragging{fill:#f0a04b}.decelerating{fill:#f7d58b}
        .b1{fill:#3b6fd8;fill-opacity:.25}.b2{fill:#3b6fd8;fill-opacity:.5}.b3{fill:#3b6fd8;fill-opacity:.75}
        .b4{fill:#3b6fd8}.hitch{fill:#e02020}.op{fill:#c6d4ee}.opc{fill:#e8c4c4}
        .decode{fill:#e8892b}.filter{fill:#8e5bc8}.disk_read{fill:#2a9d8f}.disk_write{fill:#7a5230}
        .lat{fill:#cdd3db}.flow{fill:#2f7dd1}.fail{fill:#e02020}.cut{fill:#7d8fa6}
        .cx{stroke:#000;stroke-width:1.5}.poster{fill:#5fb364}.failed{fill:#e02020}.abandoned{fill:#b4b4b4}
        .unfinished{fill:#f2c14e}.filled{fill:#1a7f37}.unfilled{fill:#e02020}
        .mw{stroke:#8a2be2;stroke-width:1.5;stroke-dasharray:5 3}.rl{stroke:#111;stroke-width:1.5;stroke-dasharray:2 2}
        .mwt{fill:#8a2be2;font-weight:bold}.rlt{fill:#111;font-weight:bold}.wrong{fill:#d0008f}.late{fill:#ff7f00}
        """

    // MARK: Sections

    /// The title and a line of headline numbers.
    mutating func drawHeader() {
        let metrics = result.metrics
        body.label(
            "\(result.step) · \(result.scenario) · seed \(result.seed) · "
                + "\(MetricValue.seconds(events.duration).formatted) s of virtual time",
            x: 12, y: 22, className: "h")
        body.label(
            "\(metrics.requestsStarted) requests (oracle \(result.oracle.requests)) · "
                + "\(metrics.bytesDownloaded) bytes (oracle \(result.oracle.bytes)) · "
                + "\(metrics.hitches) hitches (\(Self.milliseconds(metrics.hitchTimeMicroseconds))) · "
                + "time to visible p50 \(Self.milliseconds(metrics.timeToVisible(percentile: 50))), "
                + "p95 \(Self.milliseconds(metrics.timeToVisible(percentile: 95)))",
            x: 12, y: 40, className: "s")
        y = 80
    }

    /// The scroll state band, then each stop as a bar from rest to filled.
    mutating func drawScrollBand() {
        body.label("scroll state", x: 12, y: y + 12, className: "g")
        body.rect(x: x(0), y: y, width: plotWidth, height: 16, className: "lane")
        for segment in events.scroll where segment.state != "idle" {
            let start = x(segment.span.start)
            body.rect(
                x: start, y: y, width: max(1, x(segment.span.end) - start), height: 16,
                className: segment.state)
        }
        y += 20
        body.label("scroll stops (wait to fill)", x: 12, y: y + 16, className: "g")
        var labelEnd = -Double.infinity
        for stop in events.stops {
            let start = x(stop.span.start)
            let width = max(1.5, x(stop.span.end) - start)
            let verdict = stop.filled ? "filled after" : "left unfilled after"
            let tooltip =
                "stop at \(Self.milliseconds(stop.span.start)): \(verdict) "
                + Self.milliseconds(stop.span.end - stop.span.start)
            body.rect(
                x: start, y: y + 12, width: width, height: 6, className: stop.filled ? "filled" : "unfilled",
                tooltip: tooltip)
            body.raw(
                "<path class=\"\(stop.filled ? "filled" : "unfilled")\" d=\"M\(SVGWriter.number(start)) "
                    + "\(SVGWriter.number(y + 12))l-4-7h8z\"><title>\(SVGWriter.escape(tooltip))</title></path>"
            )
            let text = MetricValue.milliseconds(stop.span.end - stop.span.start).formatted + " ms"
            if start + 6 > labelEnd {
                body.label(text, x: start + 6, y: y + 9, className: stop.filled ? "sl" : "hl")
                labelEnd = start + 6 + Double(text.count) * 5.5
            }
        }
        y += 26
    }

    /// The main thread: how busy each pixel's worth of time was, its own decode and disk work, and hitches.
    mutating func drawMainThread() {
        let laneHeight = 30.0
        body.label("main thread", x: 12, y: y + 22, className: "g")
        body.label("busy · hitches in red", x: 12, y: y + 34, className: "s")
        let hitchLabelRow = y + 9
        y += 12
        body.rect(x: x(0), y: y, width: plotWidth, height: laneHeight, className: "lane")
        drawBusyDensity(top: y, height: laneHeight)
        drawWork(on: "main", top: y + laneHeight * 0.6, height: laneHeight * 0.4)
        var labelEnd = -Double.infinity
        for hitch in events.hitches {
            let end = x(hitch.time)
            let start = min(end - 1.5, x(hitch.time - hitch.micros))
            let length = Self.milliseconds(hitch.micros)
            body.rect(
                x: start, y: y - 2, width: end - start, height: laneHeight + 4, className: "hitch",
                tooltip: "hitch: a frame presented \(length) late")
            if start > labelEnd {
                body.label(length, x: start, y: hitchLabelRow, className: "hl")
                labelEnd = start + Double(length.count) * 5.2 + 4
            }
        }
        y += laneHeight + 10
    }

    /// The main lane's busy time as columns a pixel wide, shaded by how much of each column was busy.
    mutating func drawBusyDensity(top: Double, height: Double) {
        let columns = Int(plotWidth) + 1
        let microsPerColumn = 1_000_000 / pixelsPerSecond
        var busy = [Double](repeating: 0, count: columns)
        for span in events.mainBusy where span.end > span.start {
            let first = Double(span.start) / microsPerColumn
            let last = Double(span.end) / microsPerColumn
            var column = Int(first)
            while column < columns, Double(column) < last {
                let overlap = min(last, Double(column + 1)) - max(first, Double(column))
                busy[column] += overlap
                column += 1
            }
        }
        var runStart = 0
        var runLevel = 0
        for column in 0...columns {
            let level = column < columns ? Int((min(1, busy[column]) * 4).rounded(.up)) : -1
            if level != runLevel {
                if runLevel > 0 {
                    body.rect(
                        x: Self.labelWidth + Double(runStart), y: top, width: Double(column - runStart),
                        height: height, className: "b\(runLevel)")
                }
                runStart = column
                runLevel = level
            }
        }
    }

    /// The queue worker threads, one lane each, grouped by queue.
    mutating func drawWorkerLanes() {
        let laneHeight = 14.0
        var currentQueue = ""
        for thread in events.workerThreads {
            let queue = TimelineEvents.splitThreadName(thread).queue
            if queue != currentQueue {
                currentQueue = queue
                let count = events.workerThreads.filter { TimelineEvents.splitThreadName($0).queue == queue }
                    .count
                body.label(
                    "\(queue) · \(count) thread\(count == 1 ? "" : "s")", x: 12, y: y + 12, className: "g")
                y += 16
            }
            body.label(thread, x: 24, y: y + 11)
            body.rect(x: x(0), y: y, width: plotWidth, height: laneHeight, className: "lane")
            var spans: [(start: Double, end: Double, className: String)] = []
            for operation in events.operations where operation.thread == thread {
                spans.append(
                    (x(operation.span.start), x(operation.span.end), operation.cancelled ? "opc" : "op"))
            }
            drawMerged(spans, top: y, height: laneHeight)
            drawWork(on: thread, top: y + 4, height: laneHeight - 4)
            y += laneHeight + 3
        }
        y += 6
    }

    /// Decode, filter and disk work of one thread, each at least a pixel wide.
    mutating func drawWork(on thread: String, top: Double, height: Double) {
        let spans = events.work.filter { $0.thread == thread }.map {
            (start: x($0.span.start), end: x($0.span.end), className: $0.kind.rawValue)
        }
        drawMerged(spans, top: top, height: height)
    }

    /// Draws spans of each class, merging those of one class that touch at pixel scale.
    mutating func drawMerged(
        _ spans: [(start: Double, end: Double, className: String)], top: Double, height: Double
    ) {
        let classes = Set(spans.map(\.className)).sorted()
        for className in classes {
            let sorted = spans.filter { $0.className == className }.sorted { $0.start < $1.start }
            var current: (start: Double, end: Double)?
            for span in sorted {
                let end = max(span.end, span.start + 1)
                if let open = current, span.start <= open.end + 0.5 {
                    current = (open.start, max(open.end, end))
                } else {
                    if let open = current {
                        body.rect(
                            x: open.start, y: top, width: open.end - open.start, height: height,
                            className: className)
                    }
                    current = (span.start, end)
                }
            }
            if let open = current {
                body.rect(
                    x: open.start, y: top, width: open.end - open.start, height: height, className: className)
            }
        }
    }

    /// Vertical lines for memory warnings and relaunches; small marks for wrong images and late completions.
    mutating func drawMarkers(top: Double, bottom: Double) {
        var markers: [(time: Int64, lineClass: String, textClass: String, name: String)] = []
        markers += events.memoryWarnings.map { ($0, "mw", "mwt", "memory warning") }
        markers += events.relaunches.map { ($0, "rl", "rlt", "relaunch") }
        markers.sort { ($0.time, $0.name) < ($1.time, $1.name) }
        var labelEnds = [-Double.infinity, -Double.infinity]
        for marker in markers {
            let position = x(marker.time)
            // Two label rows: a label goes on the first row where it does not run into the one before.
            let row = labelEnds[0] < position ? 0 : labelEnds[1] < position ? 1 : 0
            labelEnds[row] = position + 3 + Double(marker.name.count) * 6.5
            let labelY = top - 4 - Double(1 - row) * 13
            body.line(x1: position, y1: labelY + 2, x2: position, y2: bottom, className: marker.lineClass)
            body.label(marker.name, x: position + 3, y: labelY, className: marker.textClass)
        }
        for (times, className, name) in [
            (events.wrongImages, "wrong", "wrong image"), (events.lateCompletions, "late", "late completion"),
        ] {
            for time in times {
                body.raw(
                    "<circle class=\"\(className)\" cx=\"\(SVGWriter.number(x(time)))\" "
                        + "cy=\"\(SVGWriter.number(bottom - 4))\" r=\"3\"><title>\(name) at "
                        + "\(Self.milliseconds(time))</title></circle>")
            }
        }
    }

    /// Grid lines behind the chart, and the time axis below it (ticks in whole seconds).
    mutating func axisAndGrid(top: Double, bottom: Double) -> String {
        var grid = SVGWriter()
        let step =
            [1, 2, 5, 10, 15, 30, 60, 120, 300, 600].first { Double($0) * pixelsPerSecond >= 45 } ?? 600
        let seconds = Int(Double(events.duration) / 1_000_000)
        body.line(x1: x(0), y1: bottom + 4, x2: x(0) + plotWidth, y2: bottom + 4, className: "axis")
        for second in stride(from: 0, through: seconds, by: step) {
            let position = x(Int64(second) * 1_000_000)
            grid.line(x1: position, y1: top, x2: position, y2: bottom + 4, className: "grid")
            body.line(x1: position, y1: bottom + 4, x2: position, y2: bottom + 9, className: "axis")
            body.label("\(second) s", x: position, y: bottom + 21, className: "ax", anchor: "middle")
        }
        y = bottom
        return grid.text
    }

    /// Swatches naming every colour (class `key`, so they are not taken for items of the run).
    mutating func drawLegend() {
        let entries: [(String, String)] = [
            ("dragging", "dragging"), ("decelerating", "decelerating"), ("filled", "stop filled"),
            ("unfilled", "stop left unfilled"), ("b4", "main thread busy"), ("hitch", "hitch"),
            ("op", "operation running"), ("opc", "operation cancelled"), ("decode", "decode"),
            ("filter", "sepia filter"), ("disk_read", "disk read"), ("disk_write", "disk write"),
            ("lat", "queued + latency"), ("flow", "bytes flowing"), ("cut", "cancelled (│ where it stopped)"),
            ("fail", "failed"), ("poster", "row waited, shows image"),
            ("failed", "row waited, shows failed"),
            ("abandoned", "row left the screen waiting"), ("unfinished", "still waiting at the end"),
        ]
        var left = 12.0
        let limit = Self.labelWidth + plotWidth
        for (className, name) in entries {
            let width = 18 + Double(name.count) * 6.2 + 14
            if left + width > limit {
                left = 12
                y += 18
            }
            body.rect(x: left, y: y, width: 12, height: 10, className: "key \(className)")
            body.label(name, x: left + 16, y: y + 9)
            left += width
        }
        left = 12
        y += 18
        body.raw(
            "<line class=\"key mw\" x1=\"12\" y1=\"\(SVGWriter.number(y + 5))\" x2=\"28\" y2=\"\(SVGWriter.number(y + 5))\"/>"
        )
        body.label("memory warning", x: 32, y: y + 9)
        body.raw(
            "<line class=\"key rl\" x1=\"140\" y1=\"\(SVGWriter.number(y + 5))\" x2=\"156\" y2=\"\(SVGWriter.number(y + 5))\"/>"
        )
        body.label("relaunch", x: 160, y: y + 9)
        body.raw("<circle class=\"key wrong\" cx=\"236\" cy=\"\(SVGWriter.number(y + 5))\" r=\"3\"/>")
        body.label("wrong image", x: 244, y: y + 9)
        body.raw("<circle class=\"key late\" cx=\"336\" cy=\"\(SVGWriter.number(y + 5))\" r=\"3\"/>")
        body.label("late completion", x: 344, y: y + 9)
        y += 16
    }
}
