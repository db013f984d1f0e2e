/// The exercises of chapter 3 and the scenarios they play.
extension Exercises {
    static let slow = ScenarioChoice.file(
        path: "out/slow.scenario", make: .text("rows 200\nwait 2s\ndrag to row 30 over 30s\nwait 3s\n"))

    static let chapter3: [Exercise] = [
        Exercise(
            id: "3.1", step: 3,
            kind: .change([
                Edit(
                    file: "ListViewController.swift", inside: "func startDownloadForRecord",
                    old: "            if downloader.isCancelled {\n                return\n            }\n",
                    new: "")
            ]),
            hints: ["Watch late_completions: completion work that ran for a cancelled operation."],
            runs: [RunSpec(label: "slow-reuse", step: .this, scenario: .builtIn("slow-reuse"))],
            expectations: [
                Expectation(
                    .metric("late_completions", of: "slow-reuse"), .above,
                    .baseline("late_completions", of: "slow-reuse"),
                    says: "cancelled downloads should now hop to the main queue: late_completions should rise"
                )
            ],
            mutants: [
                Mutant(
                    "the check moved into the hop instead of deleted", file: "ListViewController.swift",
                    inside: "func startDownloadForRecord",
                    "            if downloader.isCancelled {\n                return\n            }\n"
                        + "            OperationQueue.main.addOperation {\n",
                    "            OperationQueue.main.addOperation {\n"
                        + "            if downloader.isCancelled {\n                return\n            }\n",
                    shows: ["late_completions should rise"]),
                Mutant(
                    "the check deleted in startFiltrationForRecord instead",
                    [
                        Edit(
                            file: "ListViewController.swift", inside: "func startFiltrationForRecord",
                            old:
                                "            if filterer.isCancelled {\n                return\n            }\n",
                            new: "")
                    ], shows: ["late_completions should rise"]),
            ]),
        Exercise(
            id: "3.2", step: 3, kind: .run,
            hints: ["Compare placeholder_row_seconds: step 3 loads nothing while the finger moves."],
            runs: [
                RunSpec(label: "step 2", step: .previous, scenario: slow),
                RunSpec(label: "step 3", step: .this, scenario: slow),
            ],
            expectations: [
                Expectation(
                    .metric("placeholder_row_seconds", of: "step 3"), .above,
                    .metric("placeholder_row_seconds", of: "step 2"), times: 2,
                    says: "during a long slow drag step 3 should show far more grey than step 2")
            ]),
        Exercise(
            id: "3.3", step: 3, kind: .run,
            hints: ["Only visible rows are in the queue now, so more workers waste nothing."],
            runs: [
                RunSpec(label: "one", step: .this, scenario: .builtIn("course")),
                RunSpec(
                    label: "three", step: .this, scenario: .builtIn("course"),
                    options: ["--concurrency", "3"]),
            ],
            expectations: [
                Expectation(
                    .metric("time_to_visible_ms_p95", of: "three"), .below,
                    .metric("time_to_visible_ms_p95", of: "one"),
                    says: "three workers should fill stops sooner")
            ]),
        Exercise(
            id: "3.4", step: 3,
            kind: .write([
                Blank(file: "ListViewController.swift", declaration: "func loadImagesForOnscreenCells")
            ]),
            hints: [
                "Start from `guard let pathsArray = tableView.indexPathsForVisibleRows else { return }`.",
                "var allPendingOperations = Set(movieOperations.downloadsInProgress.keys); "
                    + "allPendingOperations.formUnion(movieOperations.filtrationsInProgress.keys)",
                "let toBeCancelled = allPendingOperations.subtracting(visiblePaths); "
                    + "let toBeStarted = visiblePaths.subtracting(allPendingOperations)",
            ],
            runs: [
                RunSpec(label: "long-fling", step: .this, scenario: .builtIn("long-fling")),
                RunSpec(label: "step 2", step: .previous, scenario: .builtIn("long-fling")),
                RunSpec(label: "course", step: .this, scenario: .builtIn("course")),
                RunSpec(label: "slow-reuse", step: .this, scenario: .builtIn("slow-reuse")),
                RunSpec(label: "flaky", step: .this, scenario: .builtIn("flaky")),
                RunSpec(label: "pending at a stop", step: .this, scenario: pendingAtStop),
            ],
            expectations: [
                Expectation(
                    .screenFilled, on: "course", says: "the rows the table stops on should get posters"),
                Expectation(
                    .screenFilled, on: "long-fling", says: "the rows the table stops on should get posters"),
                Expectation(
                    .metric("operations_cancelled", of: "long-fling"), .above, .number(0),
                    says: "work for rows that left the screen should be cancelled"),
                Expectation(
                    .metric("bytes_downloaded", of: "long-fling"), .below,
                    .metric("bytes_downloaded", of: "step 2"),
                    times: 0.5, says: "step 3 should move far fewer bytes than step 2 on long flings"),
                Expectation(
                    .metric("time_to_visible_ms_p95", of: "long-fling"), .atMost,
                    .baseline("time_to_visible_ms_p95", of: "long-fling"), times: 1.1,
                    says: "the stops should fill as fast as with the code as shipped: are the visible rows "
                        + "started at every stop, even one with rows to cancel?"),
                Expectation(
                    .metric("stops_unfilled", of: "slow-reuse"), .atMost,
                    .baseline("stops_unfilled", of: "slow-reuse"),
                    says: "a row that comes back after its work was cancelled should start again: "
                        + "is a cancelled operation removed from its map?"),
                Expectation(
                    .metric("stops_unfilled", of: "flaky"), .atMost, .baseline("stops_unfilled", of: "flaky"),
                    says: "a row that comes back after its work was cancelled should start again: "
                        + "is a cancelled operation removed from its map?"),
                Expectation(
                    .metric("requests_started", of: "slow-reuse"), .atMost,
                    .baseline("requests_started", of: "slow-reuse"),
                    says: "work for rows that left the screen should be cancelled, not left to run"),
                Expectation(
                    .metric("operations_cancelled", of: "pending at a stop"), .atLeast,
                    .baseline("operations_cancelled", of: "pending at a stop"),
                    says: "every operation of a row that left the screen should be cancelled, its filtration "
                        + "as well as its download"),
            ],
            mutants: [
                Mutant(
                    "a download cancelled but not removed from downloadsInProgress",
                    file: "ListViewController.swift", inside: "func loadImagesForOnscreenCells",
                    "            movieOperations.downloadsInProgress.removeValue(forKey: indexPath)\n", "",
                    shows: ["comes back"]),
                Mutant(
                    "a download removed from its map but never cancelled", file: "ListViewController.swift",
                    inside: "func loadImagesForOnscreenCells", "                pendingDownload.cancel()\n",
                    "", shows: ["cancelled"]),
                Mutant(
                    "the two sets looped without sorting",
                    [
                        Edit(
                            file: "ListViewController.swift", inside: "func loadImagesForOnscreenCells",
                            old: "in toBeCancelled.sorted() {", new: "in toBeCancelled {"),
                        Edit(
                            file: "ListViewController.swift", inside: "func loadImagesForOnscreenCells",
                            old: "in toBeStarted.sorted() {", new: "in toBeStarted {"),
                    ], shows: ["two runs", "Set"]),
                Mutant(
                    "visible rows never started", file: "ListViewController.swift",
                    inside: "func loadImagesForOnscreenCells",
                    "            startOperationsForMovieRecord(recordToProcess, indexPath: indexPath)\n", "",
                    shows: ["placeholder"]),
                Mutant(
                    "the two differences taken the wrong way round",
                    [
                        Edit(
                            file: "ListViewController.swift", inside: "func loadImagesForOnscreenCells",
                            old: "let toBeCancelled = allPendingOperations.subtracting(visiblePaths)",
                            new: "let toBeCancelled = visiblePaths.subtracting(allPendingOperations)"),
                        Edit(
                            file: "ListViewController.swift", inside: "func loadImagesForOnscreenCells",
                            old: "let toBeStarted = visiblePaths.subtracting(allPendingOperations)",
                            new: "let toBeStarted = allPendingOperations.subtracting(visiblePaths)"),
                    ], shows: ["stops on"]),
                Mutant(
                    "a return at the end of the cancel loop", file: "ListViewController.swift",
                    inside: "func loadImagesForOnscreenCells",
                    "            movieOperations.filtrationsInProgress.removeValue(forKey: indexPath)\n        }\n",
                    "            movieOperations.filtrationsInProgress.removeValue(forKey: indexPath)\n"
                        + "            return\n        }\n", shows: ["even one with rows to cancel"]),
            ]),
        Exercise(
            id: "3.5", step: 3,
            kind: .write([
                Blank(file: "ListViewController.swift", declaration: "func scrollViewWillBeginDragging"),
                Blank(file: "ListViewController.swift", declaration: "func scrollViewDidEndDragging"),
                Blank(file: "ListViewController.swift", declaration: "func scrollViewDidEndDecelerating"),
                Blank(file: "ListViewController.swift", declaration: "func suspendAllOperations"),
                Blank(file: "ListViewController.swift", declaration: "func resumeAllOperations"),
            ]),
            hints: [
                "movieOperations.downloadQueue.isSuspended = true, and the same for filtrationQueue.",
                "scrollViewDidEndDragging gets `willDecelerate decelerate: Bool`: only `if !decelerate` has the "
                    + "table stopped.",
                "Both stop callbacks: loadImagesForOnscreenCells(); resumeAllOperations()",
            ],
            runs: [
                RunSpec(label: "long-fling", step: .this, scenario: .builtIn("long-fling"), traced: true),
                RunSpec(label: "step 2", step: .previous, scenario: .builtIn("long-fling")),
                RunSpec(label: "course", step: .this, scenario: .builtIn("course")),
                RunSpec(label: "pending at a stop", step: .this, scenario: pendingAtStop, traced: true),
            ],
            expectations: [
                Expectation(
                    .noRequestWhileScrolling, on: "long-fling",
                    says: "no request should start while the table drags or decelerates"),
                Expectation(
                    .noOperationStartWhileScrolling, on: "long-fling",
                    says: "no work should start while the table drags or decelerates: suspend both queues"),
                Expectation(
                    .noOperationStartWhileScrolling, on: "pending at a stop",
                    says: "no work should start while the table drags or decelerates: suspend both queues, "
                        + "the filtration queue too"),
                Expectation(
                    .noCancelAsHandedOut, on: "long-fling",
                    says: "when the table stops, load the visible rows (which cancels the rows that left) "
                        + "before resuming the queues"),
                Expectation(
                    .noCancelAsHandedOut, on: "pending at a stop",
                    says: "when the table stops, load the visible rows (which cancels the rows that left) "
                        + "before resuming the queues"),
                Expectation(
                    .metric("bytes_wasted", of: "long-fling"), .atMost,
                    .baseline("bytes_wasted", of: "long-fling"), times: 1.5,
                    says: "a drag should suspend the queues (isSuspended = true), not cancel their work: a "
                        + "cancelled download wastes its bytes"),
                Expectation(
                    .screenFilled, on: "long-fling", says: "the rows the table stops on should get posters"),
                Expectation(
                    .metric("stops_unfilled", of: "long-fling"), .atMost,
                    .baseline("stops_unfilled", of: "long-fling"),
                    says: "each stop should start its rows' work at once"),
                Expectation(
                    .metric("requests_started", of: "long-fling"), .below,
                    .metric("requests_started", of: "step 2"),
                    times: 0.5, says: "step 3 should start far fewer requests than step 2 on long flings"),
                Expectation(
                    .screenFilled, on: "course",
                    says:
                        "the rows a drag ends on without deceleration should get posters: scrollViewDidEndDragging "
                        + "loads them when decelerate is false"),
            ],
            mutants: [
                Mutant(
                    "no suspension when a drag begins", file: "ListViewController.swift",
                    inside: "func scrollViewWillBeginDragging", "        suspendAllOperations()\n", "",
                    shows: ["while the table"]),
                Mutant(
                    "work started when a drag ends into a deceleration", file: "ListViewController.swift",
                    inside: "func scrollViewDidEndDragging", "if !decelerate {", "if true {",
                    shows: ["while the table"]),
                Mutant(
                    "queues never resumed after a deceleration", file: "ListViewController.swift",
                    inside: "func scrollViewDidEndDecelerating", "        resumeAllOperations()\n", "",
                    shows: ["left in the app's queues", "suspended"]),
                Mutant(
                    "nothing done when a drag ends without deceleration", file: "ListViewController.swift",
                    inside: "func scrollViewDidEndDragging", "if !decelerate {", "if false {",
                    shows: ["without deceleration"]),
                Mutant(
                    "the queues' work cancelled instead of suspended", file: "ListViewController.swift",
                    inside: "func suspendAllOperations", "movieOperations.downloadQueue.isSuspended = true",
                    "movieOperations.downloadQueue.cancelAllOperations()", shows: ["suspend"]),
                Mutant(
                    "the queues resumed before the visible rows are loaded",
                    file: "ListViewController.swift", inside: "func scrollViewDidEndDecelerating",
                    "        loadImagesForOnscreenCells()\n        resumeAllOperations()\n",
                    "        resumeAllOperations()\n        loadImagesForOnscreenCells()\n",
                    shows: ["before resuming the queues"]),
                Mutant(
                    "the queues resumed after a deceleration without loading the visible rows",
                    file: "ListViewController.swift", inside: "func scrollViewDidEndDecelerating",
                    "        loadImagesForOnscreenCells()\n", "", shows: ["stop"]),
            ]),
        Exercise(
            id: "3.6", step: 3,
            kind: .write([Blank(file: "ImageDownloader.swift", declaration: "func main")]),
            hints: [
                "It is the same code as exercise 2.4.",
                "The check after the download is the one that matters: the blocking download cannot be "
                    + "interrupted, but its result can be thrown away.",
            ],
            runs: [
                RunSpec(label: "slow-reuse", step: .this, scenario: .builtIn("slow-reuse"), traced: true),
                RunSpec(label: "course", step: .this, scenario: .builtIn("course")),
                RunSpec(label: "corrupt bodies", step: .this, scenario: corruptBodies),
                RunSpec(label: "revisit", step: .this, scenario: revisit),
            ],
            expectations: [
                Expectation(.screenFilled, on: "course", says: "every row should end with its poster"),
                Expectation(
                    .screenFilled, on: "corrupt bodies",
                    says:
                        "a row whose poster does not decode should show Image.failed, not a placeholder that "
                        + "looks still loading"),
                Expectation(
                    .screenFilled, on: "revisit",
                    says: "a row whose download was cancelled while under way should load again when it "
                        + "comes back: is a cancelled download recorded as a failure?"),
                Expectation(
                    .noDecodeAfterCancel, on: "slow-reuse",
                    says: "a download cancelled while under way should not be decoded"),
                Expectation(
                    .metric("decodes", of: "slow-reuse"), .atMost, .baseline("decodes", of: "slow-reuse"),
                    says: "no more decodes than the code as shipped"),
                Expectation(
                    .metric("filters", of: "course"), .atMost, .baseline("filters", of: "course"),
                    says: "only posters that downloaded should go on to the sepia filter, not a failure"),
                Expectation(
                    .finalScreenAsShipped, on: "slow-reuse",
                    says: "each row should end with the picture the code as shipped gives it"),
                Expectation(
                    .finalScreenAsShipped, on: "course",
                    says: "each row should end with the picture the code as shipped gives it"),
            ],
            mutants: [
                Mutant(
                    "no isCancelled check after the download",
                    [
                        Edit(
                            file: "ImageDownloader.swift", inside: "func main",
                            old: "        if isCancelled {\n            return\n        }\n", new: "",
                            occurrence: 2)
                    ], shows: ["should not be decoded"]),
                Mutant(
                    "a download cancelled while under way recorded as a failure",
                    [
                        Edit(
                            file: "ImageDownloader.swift", inside: "func main",
                            old: "        if isCancelled {\n            return\n",
                            new:
                                "        if isCancelled {\n            movieRecord.state = .failed\n            return\n",
                            occurrence: 2)
                    ], shows: ["cancelled download recorded as a failure"]),
                Mutant(
                    "the second check after the decode, not before it",
                    [
                        Edit(
                            file: "ImageDownloader.swift", inside: "func main",
                            old: "        if isCancelled {\n            return\n        }\n", new: "",
                            occurrence: 2),
                        Edit(
                            file: "ImageDownloader.swift", inside: "func main",
                            old: "if let imageData, let image = Image(data: imageData) {\n",
                            new: "if let imageData, let image = Image(data: imageData) {\n"
                                + "            if isCancelled {\n                return\n            }\n"),
                    ], shows: ["should not be decoded"]),
                Mutant(
                    "a failure recorded as .downloaded", file: "ImageDownloader.swift", inside: "func main",
                    "movieRecord.state = .failed", "movieRecord.state = .downloaded", shows: ["not a failure"]
                ),
                Mutant(
                    "a force unwrap of a body that does not decode", file: "ImageDownloader.swift",
                    inside: "func main", "if let imageData, let image = Image(data: imageData) {",
                    "if let imageData, case let image = Image(data: imageData)! {",
                    shows: ["crashed", "unwrapping"]),
                Mutant(
                    "a failure left on the placeholder, without Image.failed", file: "ImageDownloader.swift",
                    inside: "func main", "            movieRecord.image = Image.failed\n", "",
                    shows: ["placeholder"]),
            ]),
    ]
}
