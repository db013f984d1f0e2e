/// Reads a scenario text line by line into a `Scenario`, enforcing the grammar `ScenarioParser` documents.
struct ScenarioReader {
    /// The lines that describe the session before it starts.
    static let settingKeywords = ["rows", "seed", "network", "screen", "faults", "slow-host", "disk"]
    /// The lines that happen during the session.
    static let actionKeywords = ["wait", "drag", "fling", "memory-warning", "relaunch"]
    /// A row an action scrolls to, remembered until the row count is known.
    private struct RowTarget {
        let line: ScenarioLine
        let row: Int
    }

    /// The scenario being built.
    private(set) var scenario: Scenario
    /// Where each setting was first given, to refuse a second one.
    private var settingLines: [String: Int] = [:]
    /// The first action's keyword and line: settings after it are refused.
    private var firstAction: (keyword: String, line: Int)?
    /// Scroll targets, checked against `rows` once the whole file is read.
    private var rowTargets: [RowTarget] = []
    /// The line that set `rows`, if any, for messages.
    private var rowsLine: Int?
    /// Whether the text had anything but blanks.
    private var sawContent = false
    /// The line of each action, in order, for errors found once the whole file is read.
    private var actionLines: [Int] = []

    /// Starts an empty scenario with default settings.
    init(name: String, source: String) {
        scenario = Scenario(name: name, source: source)
    }

    // MARK: - Whole text

    /// Reads every line of the text.
    mutating func read(_ text: String) throws(ScenarioError) {
        var body = Substring(text)
        if body.first == "\u{FEFF}" { body = body.dropFirst() }
        var number = 0
        // “\r\n” is one Character in Swift, so CRLF line ends are split on explicitly.
        let lines = body.split(
            omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" })
        for rawLine in lines {
            number += 1
            if !sawContent, rawLine.contains(where: { !$0.isWhitespace }) { sawContent = true }
            guard var line = ScenarioLine(rawLine, number: number, source: scenario.source) else { continue }
            try readLine(&line)
        }
    }

    /// Checks what can only be checked at the end (actions exist, rows are in range) and returns the scenario.
    func finish() throws(ScenarioError) -> Scenario {
        let actions = ScenarioReader.actionKeywords.joined(separator: ", ")
        guard sawContent else {
            throw ScenarioError(
                source: scenario.source, line: nil,
                message: "the file is empty; expected settings and at least one action (\(actions))")
        }
        guard !scenario.actions.isEmpty else {
            throw ScenarioError(
                source: scenario.source, line: nil,
                message: "no actions; expected at least one of \(actions)")
        }
        for target in rowTargets where target.row >= scenario.rows {
            let origin = rowsLine.map { "“rows \(scenario.rows)” on line \($0)" } ?? "the default “rows 200”"
            throw target.line.error(
                "row \(target.row) is past the last row: the scenario has \(scenario.rows) rows "
                    + "(0…\(scenario.rows - 1), from \(origin))")
        }
        try checkDuration()
        try checkWork()
        return scenario
    }

    /// Refuses a script that would draw more than `maximumRowFrames` or scroll past more than
    /// `maximumRowsScrolled` rows, naming the first action that passes either (both only grow with the
    /// script, so found by bisection, as in `checkDuration`).
    private func checkWork() throws(ScenarioError) {
        let screen = scenario.screen
        let visible = Int64((screen.height + screen.rowHeight - 1) / screen.rowHeight + 1)
        func work(_ count: Int) -> (rowFrames: Int64, rowsScrolled: Int) {
            let timeline = GestureTimeline(
                actions: Array(scenario.actions.prefix(count)), rows: scenario.rows,
                rowHeight: Double(screen.rowHeight), viewport: Double(screen.height))
            var points = 0.0
            for gesture in timeline.gestures {
                var from = gesture.fromOffset
                for point in gesture.waypoints + [gesture.restOffset] {
                    points += abs(point - from)
                    from = point
                }
            }
            let frames =
                timeline.endTime / 1_000_000 * Int64(screen.refreshRate)
                + timeline.endTime % 1_000_000 * Int64(screen.refreshRate) / 1_000_000
            return (frames * visible, Int(points / Double(screen.rowHeight)))
        }
        func tooMuch(_ count: Int) -> Bool {
            let done = work(count)
            return done.rowFrames > ScenarioReader.maximumRowFrames
                || done.rowsScrolled > ScenarioReader.maximumRowsScrolled
        }
        guard tooMuch(scenario.actions.count) else { return }
        var fits = 0
        var over = scenario.actions.count
        while over - fits > 1 {
            let middle = (fits + over) / 2
            if tooMuch(middle) { over = middle } else { fits = middle }
        }
        let done = work(over)
        let message =
            done.rowsScrolled > ScenarioReader.maximumRowsScrolled
            ? "the script has scrolled past \(done.rowsScrolled) rows here; a scenario may scroll past at most "
                + "\(ScenarioReader.maximumRowsScrolled) rows in all"
            : "the script asks the phone to draw \(done.rowFrames) row-frames by here (\(visible) rows on screen "
                + "at \(screen.refreshRate) Hz); a scenario may ask for at most \(ScenarioReader.maximumRowFrames) "
                + "(an hour at 60 Hz with 9 rows on screen is 1944000)"
        throw ScenarioError(source: scenario.source, line: actionLines[over - 1], message: message)
    }

    /// Refuses a script longer than `maximumScriptDuration`, naming the first action that ends past it.
    ///
    /// A fling's length depends on the rows and the screen, so the timeline the phone will play is built:
    /// on prefixes of the script, found by bisection (the end time only grows with the prefix).
    private func checkDuration() throws(ScenarioError) {
        let limit = ScenarioReader.maximumScriptDuration
        func endTime(_ count: Int) -> Int64 {
            GestureTimeline(
                actions: Array(scenario.actions.prefix(count)), rows: scenario.rows,
                rowHeight: Double(scenario.screen.rowHeight), viewport: Double(scenario.screen.height)
            ).endTime
        }
        guard endTime(scenario.actions.count) > limit else { return }
        var fits = 0
        var tooLong = scenario.actions.count
        while tooLong - fits > 1 {
            let middle = (fits + tooLong) / 2
            if endTime(middle) > limit { tooLong = middle } else { fits = middle }
        }
        throw ScenarioError(
            source: scenario.source, line: actionLines[tooLong - 1],
            message:
                "the script reaches \(Self.seconds(endTime(tooLong))) of virtual time here; "
                + "a scenario may last at most \(ScenarioValue.formatDuration(limit)) (one hour)")
    }

    /// Virtual time in seconds with up to three decimals, rounded down (`3602.143s`).
    private static func seconds(_ microseconds: Int64) -> String {
        ScenarioValue.formatDuration(microseconds / 1000 * 1000)
    }

    // MARK: - One line

    /// Reads one line: checks its place in the file, then its grammar.
    private mutating func readLine(_ line: inout ScenarioLine) throws(ScenarioError) {
        let keyword = line.next() ?? ""
        let isSetting = ScenarioReader.settingKeywords.contains(keyword)
        let isAction = ScenarioReader.actionKeywords.contains(keyword)
        guard isSetting || isAction else {
            throw line.error(unknownKeywordMessage(keyword))
        }
        if isSetting {
            if let firstAction {
                throw line.error(
                    "“\(keyword)” must come before the first action (“\(firstAction.keyword)” on line "
                        + "\(firstAction.line)); settings describe the session before it starts")
            }
            if let earlier = settingLines[keyword] {
                throw line.error(
                    "“\(keyword)” is already set on line \(earlier); each setting may appear once")
            }
            settingLines[keyword] = line.number
        } else {
            if firstAction == nil { firstAction = (keyword, line.number) }
            guard actionLines.count < ScenarioReader.maximumActions else {
                throw line.error(
                    "this is action \(actionLines.count + 1); a scenario may hold at most "
                        + "\(ScenarioReader.maximumActions) actions")
            }
            actionLines.append(line.number)
        }
        switch keyword {
        case "rows": try readRows(&line)
        case "seed": try readSeed(&line)
        case "network", "screen", "faults", "disk": try readKeyed(keyword, &line)
        case "slow-host": try readSlowHost(&line)
        case "wait": try readWait(&line)
        case "drag": try readDrag(&line)
        case "fling": try readFling(&line)
        case "memory-warning": scenario.actions.append(.memoryWarning)
        case "relaunch": scenario.actions.append(.relaunch)
        default: throw line.error(unknownKeywordMessage(keyword))
        }
        try line.expectEnd()
    }

    /// “unknown action or setting …; expected one of …”, with a suggestion when one is close.
    private func unknownKeywordMessage(_ keyword: String) -> String {
        let known = ScenarioReader.settingKeywords + ScenarioReader.actionKeywords
        var message =
            "unknown action or setting \(ScenarioLine.quote(keyword)); expected one of "
            + known.joined(separator: ", ")
        if let suggestion = EditDistance.closest(to: keyword.lowercased(), among: known) {
            message += " (did you mean “\(suggestion)”?)"
        }
        return message
    }

    // MARK: - Settings

    /// `rows N`, 1…1 000 000.
    private mutating func readRows(_ line: inout ScenarioLine) throws(ScenarioError) {
        let what = "a row count from 1 to \(ScenarioReader.maximumRows)"
        guard let token = line.next() else { throw line.expected(what) }
        guard let rows = ScenarioValue.wholeInt(Substring(token)), rows >= 1,
            rows <= ScenarioReader.maximumRows
        else { throw line.expected(what, insteadOf: token) }
        scenario.rows = rows
        rowsLine = line.number
    }

    /// `seed N`, any `UInt64`.
    private mutating func readSeed(_ line: inout ScenarioLine) throws(ScenarioError) {
        let what = "a seed (a whole number from 0 to \(UInt64.max))"
        guard let token = line.next() else { throw line.expected(what) }
        guard let seed = ScenarioValue.wholeNumber(Substring(token)) else {
            throw line.expected(what, insteadOf: token)
        }
        scenario.seed = seed
    }

    /// A `key=value` setting line (`network rtt=120ms`, `faults corrupt=2%`): every word checked and
    /// stored by the table, then what concerns the keys together.
    private mutating func readKeyed(_ keyword: String, _ line: inout ScenarioLine) throws(ScenarioError) {
        guard let setting = ScenarioReader.keyedSettings[keyword] else { return }
        if line.isAtEnd, let expected = setting.whenEmpty { throw line.expected(expected) }
        for (key, value) in try readKeyValues(&line, setting: setting) {
            let number = try read(value, as: key.value, key: key.name, on: line)
            key.store(&scenario, number)
        }
        switch keyword {
        case "screen": try checkScreen(on: line)
        case "faults": try checkFaults(on: line)
        default: break
        }
    }

    /// `screen`: a row no taller than the screen, and not too many rows on it.
    private func checkScreen(on line: ScenarioLine) throws(ScenarioError) {
        let screen = scenario.screen
        guard screen.rowHeight <= screen.height else {
            throw line.error(
                "a row (\(screen.rowHeight) points) must not be taller than the screen "
                    + "(\(screen.height) points)")
        }
        let visible = (screen.height + screen.rowHeight - 1) / screen.rowHeight + 1
        guard visible <= ScenarioReader.maximumVisibleRows else {
            throw line.error(
                "a screen \(screen.height) points high with rows of \(screen.rowHeight) points shows up to "
                    + "\(visible) rows at once; at most \(ScenarioReader.maximumVisibleRows)")
        }
    }

    /// `faults`: together at most 100%.
    private func checkFaults(on line: ScenarioLine) throws(ScenarioError) {
        let faults = scenario.faults
        let total =
            faults.timeoutPerMille + faults.refusedPerMille + faults.serverErrorPerMille
            + faults.truncatedPerMille + faults.corruptPerMille
        guard total <= 1000 else {
            throw line.error(
                "the faults add up to \(total / 10).\(total % 10)%; together they must be at most 100%")
        }
    }

    /// `slow-host HOST factor=N`: the host, then its keys from the table.
    private mutating func readSlowHost(_ line: inout ScenarioLine) throws(ScenarioError) {
        let what = "a host name like img3.posters.test"
        guard let host = line.next() else { throw line.expected(what) }
        let allowed = host.allSatisfy { character in
            character.isASCII
                && (character.isLetter || character.isNumber || character == "." || character == "-")
        }
        guard allowed, host.first != ".", host.first != "-" else {
            throw line.expected(what, insteadOf: host)
        }
        // “factor” is the only key and at least one key is required, so it replaces this 1.
        scenario.faults.slowHost = SlowHost(host: host.lowercased(), factor: 1)
        try readKeyed("slow-host", &line)
    }

    // MARK: - Actions

    /// `wait DURATION`.
    private mutating func readWait(_ line: inout ScenarioLine) throws(ScenarioError) {
        let microseconds = try positionalDuration(&line, subject: "a wait")
        scenario.actions.append(.wait(microseconds: microseconds))
    }

    /// `drag to row N over DURATION`, or `drag to row N then row M … over DURATION` without lifting.
    private mutating func readDrag(_ line: inout ScenarioLine) throws(ScenarioError) {
        var rows = [try readTargetRow(&line)]
        while line.peek() == "then" {
            _ = line.next()
            try line.expect("row", phrase: "“row <row>” after “then”")
            rows.append(try readRowNumber(&line))
        }
        try line.expect("over", phrase: "“over <duration>”")
        let microseconds = try positionalDuration(&line, subject: "a drag")
        if rows.count == 1 {
            scenario.actions.append(.drag(toRow: rows[0], microseconds: microseconds))
        } else {
            scenario.actions.append(.dragThrough(rows: rows, microseconds: microseconds))
        }
    }

    /// `fling to row N`.
    private mutating func readFling(_ line: inout ScenarioLine) throws(ScenarioError) {
        let row = try readTargetRow(&line)
        scenario.actions.append(.fling(toRow: row))
    }

    /// `to row N` after `drag` or `fling`; the row is checked against `rows` at the end of the file.
    private mutating func readTargetRow(_ line: inout ScenarioLine) throws(ScenarioError) -> Int {
        try line.expect("to", phrase: "“to row <row>”")
        try line.expect("row", phrase: "“row <row>”")
        return try readRowNumber(&line)
    }

    /// A row number, checked against `rows` at the end of the file.
    private mutating func readRowNumber(_ line: inout ScenarioLine) throws(ScenarioError) -> Int {
        let what = "a row number from 0 to \(ScenarioReader.maximumRows - 1)"
        guard let token = line.next() else { throw line.expected(what) }
        guard let row = ScenarioValue.wholeInt(Substring(token)), row < ScenarioReader.maximumRows else {
            throw line.expected(what, insteadOf: token)
        }
        rowTargets.append(RowTarget(line: line, row: row))
        return row
    }

    /// A positive duration as the next token (`wait 2s`, `over 1s`).
    private func positionalDuration(_ line: inout ScenarioLine, subject: String) throws(ScenarioError)
        -> Int64
    {
        let what = "a duration like 2s, 1.5s, 250ms or 500us"
        guard let token = line.next() else { throw line.expected(what) }
        guard let microseconds = ScenarioValue.durationMicroseconds(token) else {
            throw line.expected(what, insteadOf: token)
        }
        guard microseconds > 0 else {
            throw line.error("\(subject) must last longer than zero, found \(ScenarioLine.quote(token))")
        }
        guard microseconds <= ScenarioReader.maximumDuration else {
            throw line.error("\(subject) may last at most 3600s, found \(ScenarioLine.quote(token))")
        }
        return microseconds
    }
}
