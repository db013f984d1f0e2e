/// The exercises of chapter 6 and the scenarios they play.
extension Exercises {
    static let chapter6: [Exercise] = [
        Exercise(
            id: "6.1", step: 6,
            kind: .write([
                Blank(
                    file: "DownloadSlots.swift", declaration: "private static func startNext",
                    placeholder: "fatalError(\"exercise 6.1: hand the free slots to the most eager waiters\")"
                )
            ]),
            hints: [
                "`while state.inUse < limit, let index = mostEager(state.waiters) { … }`",
                "While state.isSuspended, go on only when state.visibleRowsMayStart and the waiter's priority "
                    + "is at least .userInitiated; otherwise `break`.",
            ],
            runs: [
                RunSpec(label: "reading", step: .this, scenario: .builtIn("reading")),
                RunSpec(label: "long-fling", step: .this, scenario: .builtIn("long-fling")),
                RunSpec(label: "fling while waiting", step: .this, scenario: flingWhileWaiting),
            ],
            expectations: [
                Expectation(.screenFilled, on: "reading", says: "every row should end with its poster"),
                Expectation(.screenFilled, on: "long-fling", says: "every row should end with its poster"),
                Expectation(
                    .metric("placeholder_row_seconds", of: "reading"), .atMost,
                    .baseline("placeholder_row_seconds", of: "reading"),
                    says: "a row a drag at reading pace brings on screen should start loading at once"),
                Expectation(
                    .metric("time_to_visible_ms_p95", of: "reading"), .atMost,
                    .baseline("time_to_visible_ms_p95", of: "reading"),
                    says: "a visible row should go before a prefetch: take the most eager waiter"),
                Expectation(
                    .metric("requests_started", of: "long-fling"), .atMost,
                    .baseline("requests_started", of: "long-fling"),
                    says:
                        "nothing should start for the rows a fling flies past: hold the line while suspended"),
                Expectation(
                    .metric("bytes_wasted", of: "long-fling"), .atMost,
                    .baseline("bytes_wasted", of: "long-fling"), times: 1.1,
                    says: "downloads for rows flown past waste bytes"),
            ],
            // On the built-in scenarios few loads are still in line when a drag begins, so a line never
            // held barely moves a figure: the slots' own test, which counts what is handed out, tells.
            tests: "Step6DownloadSlotsTests",
            mutants: [
                Mutant(
                    "a line never held while the user scrolls", file: "DownloadSlots.swift",
                    inside: "private static func startNext",
                    "guard !state.isSuspended || (state.visibleRowsMayStart && isVisibleRow) else { break }",
                    "", byTests: true, shows: ["only a visible row's download starts"]),
                Mutant(
                    "visible rows held even at reading pace", file: "DownloadSlots.swift",
                    inside: "private static func startNext",
                    "(state.visibleRowsMayStart && isVisibleRow)", "false",
                    shows: ["reading pace", "start loading at once"]),
                Mutant(
                    "the first waiter served, not the most eager", file: "DownloadSlots.swift",
                    inside: "private static func startNext", "let index = mostEager(state.waiters)",
                    "let index = state.waiters.indices.first", byTests: true, shows: ["the more eager waiter"]
                ),
                Mutant(
                    "a visible row told apart with > instead of >=", file: "DownloadSlots.swift",
                    inside: "private static func startNext", "priority >= .userInitiated",
                    "priority > .userInitiated", shows: ["reading pace"]),
                Mutant(
                    "a waiter resumed but left in the line", file: "DownloadSlots.swift",
                    inside: "private static func startNext",
                    "ready.append(state.waiters.remove(at: index).continuation)",
                    "ready.append(state.waiters[index].continuation)", shows: ["more than once"]),
            ])
    ]
}
