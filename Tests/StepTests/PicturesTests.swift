import Foundation
import Shared
import TestSupport
import Testing

@testable import CLI
@testable import Pictures

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// The four ways to look at a run: the SVG timeline, the text screens, the exported PNGs and the comparison.
extension StepPartsTests {
    // MARK: Timeline

    @Test("The timeline parses as XML and draws every transfer, hitch, lane and marker the run had")
    func timelineMatchesTheRun() throws {
        for step in Step.allCases {
            for scenario in ["course", "flaky"] {
                try expectTimelineMatches(SharedRuns.shared.result(step, scenario))
            }
        }
    }

    /// Checks that the run's timeline draws what the run had.
    func expectTimelineMatches(_ run: RunResult) throws {
        let context = "\(run.step) on \(run.scenario)"
        let svg = try SVGElements(TimelineSVG.render(run))
        #expect(svg.elements.contains { $0.classes.contains("key") }, "\(context): the legend is there")
        let transfers = svg.elements.filter { $0.name == "g" && $0.classes.contains("transfer") }
        #expect(transfers.count == Int(run.metric("requests_started")), "\(context)")
        #expect(transfers.count > 0, "\(context)")
        #expect(
            transfers.filter { $0.classes.contains("cancelled") }.count
                == Int(run.metric("requests_cancelled")), "\(context)")
        #expect(
            transfers.filter { $0.classes.contains("failed") }.count == Int(run.metric("requests_failed")),
            "\(context)")
        let hitches = svg.elements.filter { $0.name == "rect" && $0.classes.contains("hitch") }
        #expect(hitches.count == Int(run.metric("hitches")), "\(context)")
        #expect(svg.count("line", "mw") == run.events("memory_warning").count, "\(context)")
        #expect(svg.count("line", "rl") == run.events("relaunch").count, "\(context)")
        let threads = Set(
            run.trace.compactMap { $0.text("thread") }
        ).subtracting(["main"])
        for thread in threads {
            #expect(svg.texts.contains(thread), "\(context): no lane for \(thread)")
        }
        #expect(svg.texts.contains("main thread"), "\(context)")
        #expect(svg.texts.contains("10 s"), "\(context): the time axis is labelled in seconds")
    }

    @Test("The course timeline stays under 2 MB and keeps numbers to one decimal")
    func timelineIsSmall() throws {
        let longDecimals = try Regex(#"[xy]="\d+\.\d\d"#)
        for step in Step.allCases {
            let svg = TimelineSVG.render(try SharedRuns.shared.result(step, "course"))
            #expect(svg.utf8.count < 2_000_000, "\(step)")
            #expect(svg.firstMatch(of: longDecimals) == nil, "\(step)")
        }
    }

    // MARK: Screens

    @Test("Screens and exports show every stop, and mark the ones the user left unfilled as the trace does")
    func screensShowEveryStop() throws {
        // Step 3 leaves stops of long-fling unfilled: the user flings on before the posters arrive.
        let run = try SharedRuns.shared.result(.idleOnly, "long-fling")
        let unfilled = Int(run.metric("stops_unfilled"))
        #expect(unfilled > 0, "the scenario should leave a stop unfilled, or this test proves nothing")
        #expect(run.stops.filter(\.isUnfilled).count == unfilled)
        let headings = ScreenText.render(run, color: false).split(separator: "\n").filter {
            $0.hasPrefix("stop ")
        }
        #expect(headings.count == run.stops.count)
        #expect(headings.filter { $0.contains("left unfilled after") }.count == unfilled)
        #expect(headings.filter { $0.contains("· filled after") }.count == run.stops.count - unfilled)
        let captions = run.stops.enumerated().map { index, stop in
            PictureExport.caption(stop, number: index + 1, of: run.stops.count)
        }
        #expect(captions.filter { $0.contains("left unfilled after") }.count == unfilled)
        #expect(captions.filter { $0.hasSuffix("to fill") }.count == run.stops.count - unfilled)
    }

    @Test("Screens text is identical across runs and its end screen is the JSON's final screen")
    func screensTextIsStable() throws {
        let first = try Step.background.run("course")
        let second = try Step.background.run("course")
        let text = ScreenText.render(first, color: false)
        #expect(text == ScreenText.render(second, color: false))
        #expect(!text.contains("\u{1B}"))
        let headings = text.split(separator: "\n").filter { $0.hasPrefix("stop ") }
        #expect(headings.count == first.events("stop_filled").count + first.events("stop_unfilled").count)
        let blocks = text.components(separatedBy: "\n\n")
        let endBlock = try #require(blocks.last)
        let endLines = endBlock.split(separator: "\n").dropFirst()
        let json = try #require(
            try JSONSerialization.jsonObject(with: Data(JSONReport.render(first).utf8)) as? [String: Any])
        let finalScreen = try #require(json["final_screen"] as? [[String: Any]])
        #expect(endLines.count == finalScreen.count)
        for (line, row) in zip(endLines, finalScreen) {
            // Columns: two spaces, the row in 4, two spaces, what it shows in 12, two spaces, the title.
            let parts = line.split(separator: " ", omittingEmptySubsequences: true)
            #expect(Int(parts[0]) == row["row"] as? Int)
            // The screens name what a row shows in the report's own words.
            #expect(String(parts[1]) == row["shows"] as? String)
            #expect(String(line.dropFirst(22)) == row["title"] as? String)
        }
    }

    @Test("Colour screens draw each poster as a half-block thumbnail in its own colours")
    func colourScreensDrawThumbnails() throws {
        let run = try SharedRuns.shared.result(.cacheAndPrefetch, "course")
        let text = ScreenText.render(run, color: true)
        #expect(text.contains("▀"))
        let row = try #require(run.finalScreen.rows.first { $0.bitmap != nil })
        let poster = try #require(row.bitmap)
        // The thumbnail's top-left pixel covers the poster's top-left 1/8 × 1/10.
        let expected = averageColour(
            poster, x: 0..<(poster.width / ScreenText.thumbnailWidth),
            y: 0..<(poster.height / ScreenText.thumbnailHeight))
        let lines = ScreenText.halfBlocks(for: row)
        let prefix = try #require(lines.first?.split(separator: "m").first)
        let channels = prefix.split(separator: ";").suffix(3).compactMap { Int($0) }
        #expect(channels.count == 3)
        for (channel, target) in zip(channels, expected) {
            #expect(abs(Double(channel) - target) <= 2)
        }
        #expect(Workbook.useColor(.never, descriptor: 1) == false)
        #expect(Workbook.useColor(.always, descriptor: 1) == true)
    }

    @Test("Exported PNGs decode to the screen's size and show the posters' colours in the thumbnails")
    func exportedPNGsDecode() throws {
        let run = try SharedRuns.shared.result(.idleOnly, "course")
        let folder = try StepFixtures.folder("pictures-export")
        defer { try? FileManager.default.removeItem(at: folder) }
        let names = try PictureExport.write(run, to: folder)
        #expect(names == names.sorted())
        let listed = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        #expect(listed == names)
        let screens = names.filter { $0.hasPrefix("screen-") }
        #expect(screens.count == run.stops.count + 1)
        #expect(screens.last == "screen-end.png")
        #expect(screens.first?.hasPrefix("screen-01-stop-") == true)
        var postersChecked = 0
        var placeholdersChecked = 0
        for (name, snapshot) in zip(screens, run.stops + [run.finalScreen]) {
            let data = try Data(contentsOf: folder.appendingPathComponent(name))
            let picture = try PNGDecoder.decode([UInt8](data))
            #expect(picture.width == 375)
            #expect(picture.height == 28 + 88 * snapshot.rows.count)
            for (index, row) in snapshot.rows.enumerated() {
                // The thumbnail box is 56 × 76 at (10, 6) in each 88-point row below the 28-point caption;
                // a 180 × 270 poster fits it as 51 × 76, centred: 12 points from the left.
                if let poster = row.bitmap {
                    let (width, height) = (51, 76)
                    let (left, top) = (10 + (56 - width) / 2, 28 + 88 * index + 6)
                    let (x, y) = (width / 2, height / 2)
                    let shown = picture.pixel(x: left + x, y: top + y)
                    // That thumbnail pixel averages the poster's pixels in its share of the poster.
                    let expected = averageColour(
                        poster, x: (x * poster.width / width)..<((x + 1) * poster.width / width),
                        y: (y * poster.height / height)..<((y + 1) * poster.height / height))
                    for (channel, target) in zip([shown.red, shown.green, shown.blue], expected) {
                        #expect(abs(Double(channel) - target) <= 1, "\(name) row \(row.row)")
                    }
                    postersChecked += 1
                } else if row.shows == "placeholder" {
                    let shown = picture.pixel(x: 10 + 28, y: 28 + 88 * index + 6 + 38)
                    #expect(shown.red == shown.green && shown.red > 150 && shown.red < 230)
                    placeholdersChecked += 1
                }
            }
        }
        #expect(postersChecked > 0)
        for name in names where name.hasPrefix("poster-row-") {
            let rowNumber = Int(name.dropFirst("poster-row-".count).dropLast(".png".count))
            let row = try #require(
                (run.stops + [run.finalScreen]).flatMap(\.rows).first {
                    $0.row == rowNumber && $0.bitmap != nil
                })
            let data = try Data(contentsOf: folder.appendingPathComponent(name))
            #expect(try PNGDecoder.decode([UInt8](data)).contentHash == row.imageHash)
        }
    }

    // MARK: Export

    @Test("Unwritable --timeline and --export paths fail before the run with a clear message")
    func unwritableOutputsFailEarly() throws {
        var timeline = RunOptions()
        timeline.timelinePath = "/nonexistent-folder-for-pictures/run.svg"
        #expect(throws: WorkbookError.self) {
            try Workbook.run(step: "Step1Naive", options: timeline, makeApp: Step.naive.makeApp)
        }
        let file = StepFixtures.path("pictures")
        try Data("x".utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        var export = RunOptions()
        export.exportDirectory = file.path
        let error = #expect(throws: WorkbookError.self) {
            try Workbook.run(step: "Step1Naive", options: export, makeApp: Step.naive.makeApp)
        }
        #expect(error?.description.contains("--export") == true)
    }

    // MARK: Comparison

    @Test(
        "The comparison table prints each step's --json numbers, the oracle and the last step's ratio to it")
    func comparisonTableMatchesJSON() throws {
        let runs = try Step.allCases.map { try SharedRuns.shared.result($0, "course") }
        let columns = try runs.map { try ComparisonTable.column(fromJSON: Data(JSONReport.render($0).utf8)) }
        let table = ComparisonTable.render(columns)
        let lines = table.split(separator: "\n").map { $0.split(separator: " ").map(String.init) }
        let header = try #require(lines.first { $0.first == "metric" })
        #expect(Array(header[1...Step.allCases.count]) == Step.allCases.map(\.rawValue))
        for (key, _) in Metrics().entries {
            let cells = try #require(lines.first { $0.first == key }, "no row for \(key)")
            for (index, run) in runs.enumerated() {
                let expected = run.metrics.entries.first { $0.key == key }?.value.formatted
                #expect(cells[index + 1] == expected, "\(key) of \(run.step)")
            }
        }
        let requests = try #require(lines.first { $0.first == "requests_started" })
        let last = try #require(runs.last)
        let oracleColumn = Step.allCases.count + 1
        #expect(requests[oracleColumn] == String(last.oracle.requests))
        let ratio = try #require(Double(requests[oracleColumn + 1].dropLast()))
        #expect(abs(ratio - Double(last.metrics.requestsStarted) / Double(last.oracle.requests)) < 0.006)
        let bytes = try #require(lines.first { $0.first == "bytes_downloaded" })
        #expect(bytes[oracleColumn] == String(last.oracle.bytes))
    }

    // MARK: Helpers

    /// The mean red, green and blue of a box of a bitmap's pixels.
    func averageColour(_ bitmap: Bitmap, x: Range<Int>, y: Range<Int>) -> [Double] {
        var sums = [0.0, 0.0, 0.0]
        for row in y {
            for column in x {
                let pixel = bitmap.pixel(x: column, y: row)
                sums[0] += Double(pixel.red)
                sums[1] += Double(pixel.green)
                sums[2] += Double(pixel.blue)
            }
        }
        let count = Double(max(1, x.count * y.count))
        return sums.map { $0 / count }
    }
}

/// The elements of an SVG document, read with Foundation's XML parser.
final class SVGElements: NSObject, XMLParserDelegate {
    /// One element: its name and its `class` tokens.
    struct Element {
        /// The element name.
        let name: String
        /// The tokens of its `class` attribute.
        let classes: [String]
    }

    /// Every element, in document order.
    private(set) var elements: [Element] = []
    /// The text of every `text` element.
    private(set) var texts: [String] = []
    /// The text being read.
    private var currentText: String?

    /// Parses the SVG; throws when it is not well-formed XML.
    init(_ svg: String) throws {
        super.init()
        let parser = XMLParser(data: Data(svg.utf8))
        parser.delegate = self
        guard parser.parse() else {
            throw parser.parserError ?? CocoaError(.fileReadCorruptFile)
        }
    }

    /// How many elements of a name carry a class.
    func count(_ name: String, _ className: String) -> Int {
        elements.filter { $0.name == name && $0.classes.contains(className) }.count
    }

    func parser(
        _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
        qualifiedName: String?,
        attributes: [String: String]
    ) {
        let classes = (attributes["class"] ?? "").split(separator: " ").map(String.init)
        // Legend swatches (class `key`) are not items of the run.
        if !classes.contains("key") || classes == ["key"] {
            elements.append(Element(name: elementName, classes: classes))
        } else {
            elements.append(Element(name: elementName, classes: ["key"]))
        }
        if elementName == "text" { currentText = "" }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        currentText? += string
    }

    func parser(
        _ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName: String?
    ) {
        if elementName == "text", let text = currentText {
            texts.append(text)
            currentText = nil
        }
    }
}
