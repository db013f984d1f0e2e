/// Every exercise of the course, in walkthrough order: the one list `Course`, the tests and CI share.
///
/// To add one, see "Adding an exercise" in Walkthrough.md: an entry here, with the same `id` and title as
/// its item in the chapter's "Exercises" list.
enum Exercises {
    static let all: [Exercise] = chapter1 + chapter2 + chapter3 + chapter4 + chapter5 + chapter6 + added

    /// The exercise with an id, if any.
    static func named(_ id: String) -> Exercise? {
        all.first { $0.id == id }
    }

    // MARK: Chapter 1

    /// The course scenario on a fast network, as exercise 1.2 has the student write it.
    static let fastNetwork = (
        "network ", "network rtt=20ms jitter=5ms bandwidth=20MB/s connections=6 timeout=10s"
    )
    static let fast = ScenarioChoice.file(
        path: "out/fast.scenario", make: .builtIn("course", replacing: [fastNetwork]))
    static let fast120 = ScenarioChoice.file(
        path: "out/fast120.scenario",
        make: .builtIn(
            "course", replacing: [fastNetwork, ("screen ", "screen height=667 row=88 refresh=120")]))

    static let chapter1: [Exercise] = [
        Exercise(
            id: "1.1", title: "Read slowly", step: 1, kind: .run,
            task: "Predict: at reading pace, with short gentle drags, does step 1 still stutter?",
            commands: ["swift run Step1Naive --scenario reading"],
            hints: ["Look at hitch_time_ratio_ms_per_s and the band beside it."],
            runs: [RunSpec(label: "reading", step: .this, scenario: .builtIn("reading"))],
            expectations: [
                Expectation(
                    .metric("hitch_time_ratio_ms_per_s", of: "reading"), .above, .number(50),
                    says: "step 1 should stutter even at reading pace")
            ]),
        Exercise(
            id: "1.2", title: "A faster network", step: 1, kind: .run,
            task:
                "Write out/fast.scenario: the course with a 20 MB/s network. Predict the hitch ratio, then run it.",
            commands: [
                "mkdir -p out && cp Sources/Scenarios/Resources/Scenarios/course.scenario out/fast.scenario",
                "swift run Step1Naive --scenario out/fast.scenario",
            ],
            hints: [
                "Change only the network line: network rtt=20ms jitter=5ms bandwidth=20MB/s connections=6 timeout=10s",
                "Compare main_thread_busy_ms and hitch_time_ms with a run of the course itself.",
            ],
            runs: [
                RunSpec(label: "course", step: .this, scenario: .builtIn("course")),
                RunSpec(label: "fast", step: .this, scenario: fast),
            ],
            expectations: [
                Expectation(
                    .metric("main_thread_busy_ms", of: "fast"), .below,
                    .metric("main_thread_busy_ms", of: "course"),
                    times: 0.5, says: "a fast network should at least halve the main thread's work"),
                Expectation(
                    .metric("hitch_time_ms", of: "fast"), .below, .metric("hitch_time_ms", of: "course"),
                    times: 0.5, says: "a fast network should at least halve the hitch time"),
                Expectation(
                    .metric("hitch_time_ratio_ms_per_s", of: "fast"), .above, .number(50),
                    says: "decoding and filtering on the main thread should keep the worst band"),
            ]),
        Exercise(
            id: "1.3", title: "A 120 Hz screen", step: 1, kind: .run,
            task:
                "Copy out/fast.scenario to out/fast120.scenario with refresh=120. Predict: better or worse?",
            commands: [
                "cp out/fast.scenario out/fast120.scenario",
                "swift run Step1Naive --scenario out/fast120.scenario",
            ],
            hints: [
                "Change only the screen line: screen height=667 row=88 refresh=120",
                "Each late frame is forgiven one frame's time: at 120 Hz that allowance halves.",
            ],
            runs: [
                RunSpec(label: "fast", step: .this, scenario: fast),
                RunSpec(label: "fast120", step: .this, scenario: fast120),
            ],
            expectations: [
                Expectation(
                    .metric("hitch_time_ms", of: "fast120"), .above, .metric("hitch_time_ms", of: "fast"),
                    says: "at 120 Hz the same stalls should overrun more frame time"),
                Expectation(
                    .metric("hitch_time_ratio_ms_per_s", of: "fast120"), .above,
                    .metric("hitch_time_ratio_ms_per_s", of: "fast"), says: "at 120 Hz the ratio should rise"),
            ]),
    ]

    // MARK: Chapter 2

    /// Forty rows under every kind of fault: truncated and corrupt bodies (a 200 whose decode fails),
    /// timeouts, refused connections, 500s and the catalog's 404s, so each way a download fails runs.
    static let faultyNetwork = ScenarioChoice.file(
        path: "out/faults.scenario",
        make: .text(
            """
            rows 40
            seed 7
            network rtt=120ms jitter=30ms bandwidth=1000KB/s connections=6 timeout=3s
            faults truncated=10% corrupt=20% timeout=10% refused=5% server-error=5%
            wait 3s
            drag to row 8 over 1s
            wait 4s

            """))

    static let chapter2: [Exercise] = [
        Exercise(
            id: "2.1", title: "More workers", step: 2, kind: .run,
            task: "Predict what --concurrency 4 does to the wait and to the bytes.",
            commands: ["swift run Step2Background --concurrency 4"],
            hints: ["Compare time_to_visible_ms_p95 and requests_started with a run without the option."],
            runs: [
                RunSpec(label: "one", step: .this, scenario: .builtIn("course")),
                RunSpec(
                    label: "four", step: .this, scenario: .builtIn("course"), options: ["--concurrency", "4"]),
            ],
            expectations: [
                Expectation(
                    .metric("time_to_visible_ms_p95", of: "four"), .below,
                    .metric("time_to_visible_ms_p95", of: "one"),
                    says: "four workers should drain the backlog sooner"),
                Expectation(
                    .metric("requests_started", of: "four"), .atLeast, .metric("requests_started", of: "one"),
                    times: 0.9, says: "four workers should start about as many requests: the same backlog"),
            ]),
        Exercise(
            id: "2.2", title: "Remove a check", step: 2,
            kind: .change([
                Edit(
                    file: "ImageDownloader.swift", inside: "func main",
                    old: "        if isCancelled {\n            return\n        }\n", new: "", occurrence: 2)
            ]),
            task:
                "In ImageDownloader.main(), delete the second `if isCancelled { return }`. Predict what changes.",
            commands: ["swift run Step2Background"],
            hints: [
                "Does anything in step 2 ever call cancel()?",
                "Search Sources/Step2Background for cancel: nothing cancels, so the check never fires.",
            ],
            runs: [RunSpec(label: "course", step: .this, scenario: .builtIn("course"))],
            expectations: [
                Expectation(
                    .screenFilled, on: "course",
                    says: "nothing should change: every row should still end with its poster (was only the "
                        + "`if isCancelled { return }` deleted, the decode below it kept?)"),
                Expectation(
                    .metric("requests_started", of: "course"), .equal,
                    .baseline("requests_started", of: "course"),
                    says: "nothing should change: nothing in step 2 cancels"),
                Expectation(
                    .metric("bytes_downloaded", of: "course"), .equal,
                    .baseline("bytes_downloaded", of: "course"),
                    says: "nothing should change: nothing in step 2 cancels"),
                Expectation(
                    .metric("time_to_visible_ms_p95", of: "course"), .equal,
                    .baseline("time_to_visible_ms_p95", of: "course"), says: "nothing should change"),
            ],
            mutants: [
                Mutant(
                    "the decode deleted with the check", file: "ImageDownloader.swift", inside: "func main",
                    "        if isCancelled {\n            return\n        }\n"
                        + "        if let imageData, let image = Image(data: imageData) {\n"
                        + "            movieRecord.image = image\n            movieRecord.state = .downloaded\n"
                        + "        } else {\n            movieRecord.state = .failed\n"
                        + "            movieRecord.image = Image.failed\n        }\n",
                    "        _ = imageData\n", shows: ["decode below it kept"]),
                Mutant(
                    "the check turned round instead of deleted", file: "ImageDownloader.swift",
                    inside: "func main",
                    "        if isCancelled {\n            return\n        }\n        if let imageData",
                    "        if !isCancelled {\n            return\n        }\n        if let imageData",
                    shows: ["nothing should change"]),
            ]),
        Exercise(
            id: "2.3", title: "Count the waste", step: 2, kind: .run,
            task:
                "Run step 2 on long-fling and compare requests_started and bytes_downloaded with their oracles.",
            commands: ["swift run Step2Background --scenario long-fling"],
            hints: ["The oracle is the note beside requests_started and bytes_downloaded."],
            runs: [RunSpec(label: "long-fling", step: .this, scenario: .builtIn("long-fling"))],
            expectations: [
                Expectation(
                    .metric("requests_started", of: "long-fling"), .above,
                    .oracle("requests", of: "long-fling"),
                    times: 5, says: "step 2 should start many times the oracle's requests on long flings"),
                Expectation(
                    .metric("bytes_downloaded", of: "long-fling"), .above, .oracle("bytes", of: "long-fling"),
                    times: 5, says: "step 2 should move many times the oracle's bytes"),
                Expectation(
                    .metric("bytes_wasted", of: "long-fling"), .above,
                    .metric("bytes_downloaded", of: "long-fling"),
                    times: 0.5, says: "most of those bytes should be wasted"),
            ]),
        Exercise(
            id: "2.4", title: "Write the ImageDownloader", step: 2,
            kind: .write([Blank(file: "ImageDownloader.swift", declaration: "func main")]),
            task: """
                Write ImageDownloader.main(): return at once if the operation is cancelled; download \
                movieRecord.url with the blocking Network.shared.data(contentsOf:); check isCancelled again; \
                then decode with Image(data:) and set movieRecord.image and .state (.downloaded, or .failed \
                with Image.failed).
                """,
            commands: ["swift run Course check 2.4"],
            hints: [
                "The record's url is optional: movieRecord.url.flatMap { Network.shared.data(contentsOf: $0) }.",
                "After the download, `if isCancelled { return }` again: a cancel during the download shows here.",
                "if let imageData, let image = Image(data: imageData) { movieRecord.image = image; "
                    + "movieRecord.state = .downloaded } else { movieRecord.state = .failed; "
                    + "movieRecord.image = Image.failed }",
            ],
            runs: [
                RunSpec(label: "course", step: .this, scenario: .builtIn("course"), traced: true),
                RunSpec(label: "step 1", step: .previous, scenario: .builtIn("course")),
                RunSpec(label: "faults", step: .this, scenario: faultyNetwork),
            ],
            expectations: [
                Expectation(
                    .noDecodeOnMainThread, on: "course",
                    says:
                        "the decode (Image(data:)) should run in main(), on the download queue, not be sent "
                        + "to the main thread"),
                Expectation(
                    .metric("requests_started", of: "course"), .atMost,
                    .baseline("requests_started", of: "course"),
                    says: "a failed download should not be asked for again and again: record it as .failed"),
                Expectation(.screenFilled, on: "course", says: "every row should end with its poster"),
                Expectation(.noRequestOnMainThread, on: "course", says: "downloads should run on the queue"),
                Expectation(
                    .metric("main_thread_busy_ms", of: "course"), .below,
                    .metric("main_thread_busy_ms", of: "step 1"), times: 0.2,
                    says: "the main thread should do a fraction of step 1's work"),
                Expectation(.noWrongImage, on: "course", says: "no row should show another row's poster"),
                Expectation(
                    .metric("filters", of: "course"), .atMost, .baseline("filters", of: "course"),
                    says: "only posters that downloaded should go on to the sepia filter, not a failure"),
                Expectation(
                    .metric("filters", of: "course"), .atLeast, .baseline("filters", of: "course"),
                    says:
                        "every poster that downloaded should go on to the sepia filter: record it as .downloaded"
                ),
                Expectation(
                    .metric("stops_unfilled", of: "course"), .atMost,
                    .baseline("stops_unfilled", of: "course"),
                    says: "a row whose download failed should show Image.failed, not a placeholder that "
                        + "looks still loading"),
                Expectation(
                    .finalScreenAsShipped, on: "course",
                    says: "each row should end with the picture the code as shipped gives it"),
            ],
            mutants: [
                Mutant(
                    "a failure recorded as .downloaded", file: "ImageDownloader.swift", inside: "func main",
                    "movieRecord.state = .failed", "movieRecord.state = .downloaded", shows: ["not a failure"]
                ),
                Mutant(
                    "a decoded poster never stored in the record", file: "ImageDownloader.swift",
                    inside: "func main", "            movieRecord.image = image\n", "", shows: ["placeholder"]
                ),
                Mutant(
                    "a poster recorded as .filtered, skipping the filter", file: "ImageDownloader.swift",
                    inside: "func main", "movieRecord.state = .downloaded", "movieRecord.state = .filtered",
                    shows: ["sepia filter", "record it as .downloaded"]),
                Mutant(
                    "a failure left on the placeholder, without Image.failed", file: "ImageDownloader.swift",
                    inside: "func main", "            movieRecord.image = Image.failed\n", "",
                    shows: ["placeholder"]),
                Mutant(
                    "a failure set back to .new, so it is asked for again", file: "ImageDownloader.swift",
                    inside: "func main", "movieRecord.state = .failed", "movieRecord.state = .new",
                    shows: ["record it as .failed"]),
                Mutant(
                    "the decode moved to the main queue",
                    [
                        Edit(
                            file: "ImageDownloader.swift", inside: "func main",
                            old: "        if let imageData, let image = Image(data: imageData) {\n",
                            new: "        OperationQueue.main.addOperation { [self] in\n"
                                + "        if let imageData, let image = Image(data: imageData) {\n"),
                        Edit(
                            file: "ImageDownloader.swift", inside: "func main",
                            old: "            movieRecord.image = Image.failed\n        }\n",
                            new: "            movieRecord.image = Image.failed\n        }\n        }\n"),
                    ], shows: ["decode", "main thread"]),
            ]),
        Exercise(
            id: "2.5", title: "Write startDownloadForRecord", step: 2,
            kind: .write([Blank(file: "ListViewController.swift", declaration: "func startDownloadForRecord")]
            ),
            task: """
                Write startDownloadForRecord(_:indexPath:): do nothing if a download for the row is in \
                movieOperations.downloadsInProgress; else make an ImageDownloader whose completionBlock (unless \
                cancelled) hops to OperationQueue.main, removes the row from downloadsInProgress and reloads \
                it; record the downloader and add it to the download queue.
                """,
            commands: ["swift run Course check 2.5"],
            hints: [
                "Look at startFiltrationForRecord just below: the download is built the same way.",
                "Inside the completion block, `if downloader.isCancelled { return }` comes first.",
                "OperationQueue.main.addOperation { self.movieOperations.downloadsInProgress"
                    + ".removeValue(forKey: indexPath); self.tableView.reloadRows(at: [indexPath], with: .fade) }",
            ],
            runs: [
                RunSpec(label: "course", step: .this, scenario: .builtIn("course"), traced: true),
                RunSpec(label: "slow-reuse", step: .this, scenario: .builtIn("slow-reuse")),
            ],
            expectations: [
                Expectation(.screenFilled, on: "course", says: "every row should end with its poster"),
                Expectation(.noRequestOnMainThread, on: "course", says: "downloads should run on the queue"),
                Expectation(
                    .metric("requests_started", of: "course"), .atMost,
                    .baseline("requests_started", of: "course"),
                    says: "a row already downloading should not start a second download"),
                Expectation(
                    .metric("requests_started", of: "slow-reuse"), .atMost,
                    .baseline("requests_started", of: "slow-reuse"),
                    says:
                        "a row that comes back while its poster downloads should not start a second download"),
                Expectation(
                    .metric("stops_unfilled", of: "course"), .atMost,
                    .baseline("stops_unfilled", of: "course"),
                    says: "each finished download should reload its row"),
                Expectation(
                    .metric("duplicate_downloads", of: "course"), .atMost,
                    .baseline("duplicate_downloads", of: "course"),
                    says: "a row already downloading should not download its poster again"),
                Expectation(
                    .finalScreenAsShipped, on: "course",
                    says: "each row should end with the picture the code as shipped gives it"),
            ],
            // A row left in downloadsInProgress changes no figure: its picture is shown already.
            tests: "stepTwoLeavesNothing",
            mutants: [
                Mutant(
                    "no test for a download already in progress", file: "ListViewController.swift",
                    inside: "func startDownloadForRecord",
                    "        if movieOperations.downloadsInProgress[indexPath] != nil {\n            return\n        }\n",
                    "", shows: ["second download"]),
                Mutant(
                    "the downloader never recorded in downloadsInProgress", file: "ListViewController.swift",
                    inside: "func startDownloadForRecord",
                    "        movieOperations.downloadsInProgress[indexPath] = downloader\n", "",
                    shows: ["second download"]),
                Mutant(
                    "the row never reloaded when its download finishes", file: "ListViewController.swift",
                    inside: "func startDownloadForRecord",
                    "                self.tableView.reloadRows(at: [indexPath], with: .fade)\n", "",
                    shows: ["placeholder"]),
                Mutant(
                    "the row removed and reloaded off the main thread", file: "ListViewController.swift",
                    inside: "func startDownloadForRecord", "OperationQueue.main.addOperation {", "do {",
                    shows: ["main thread checker", "reloadRows"]),
                Mutant(
                    "the downloader never added to the queue", file: "ListViewController.swift",
                    inside: "func startDownloadForRecord",
                    "        movieOperations.downloadQueue.addOperation(downloader)\n", "",
                    shows: ["placeholder"]),
                Mutant(
                    "the row never removed from downloadsInProgress when its download ends",
                    file: "ListViewController.swift", inside: "func startDownloadForRecord",
                    "                self.movieOperations.downloadsInProgress.removeValue(forKey: indexPath)\n",
                    "",
                    byTests: true, shows: ["left in downloadsInProgress at the end"]),
            ]),
    ]

    // MARK: Chapter 3

    static let slow = ScenarioChoice.file(
        path: "out/slow.scenario", make: .text("rows 200\nwait 2s\ndrag to row 30 over 30s\nwait 3s\n"))

    /// A short run in which a quarter of the posters arrive with bytes flipped, so that `Image(data:)`
    /// refuses them: a decode that forces its result crashes here.
    static let corruptBodies = ScenarioChoice.file(
        path: "out/corrupt-bodies.scenario",
        make: .text(
            """
            # Posters whose bodies do not decode: a quarter arrive with bytes flipped.
            rows 30
            seed 7
            network rtt=20ms jitter=5ms bandwidth=2MB/s connections=6 timeout=10s
            faults corrupt=25%
            wait 2s
            drag to row 10 over 1s
            wait 2s

            """))

    /// Twenty rows on screen and a near-instant network: the one sepia filter falls behind the downloads,
    /// and a fling leaves while filtrations (and a few downloads) wait, so the next stop cancels both
    /// kinds of work for rows that left.
    static let pendingAtStop = ScenarioChoice.file(
        path: "out/pending-at-stop.scenario",
        make: .text(
            """
            rows 100
            seed 7
            network rtt=1ms jitter=0ms bandwidth=1000MB/s connections=6 timeout=10s
            screen height=1800 row=88 refresh=60
            wait 0.06s
            fling to row 60
            wait 2s

            """))

    /// A revisit on a slow network: the table stops, moves on before the stop's posters arrive (their
    /// downloads are cancelled while under way), then comes back and waits long enough for every poster.
    static let revisit = ScenarioChoice.file(
        path: "out/revisit.scenario",
        make: .text(
            """
            rows 60
            seed 29
            network rtt=700ms jitter=100ms bandwidth=300KB/s connections=6 timeout=15s
            wait 4s
            drag to row 8 over 1s
            wait 0.6s
            drag to row 24 over 0.4s
            wait 1s
            drag to row 8 over 0.6s
            wait 10s

            """))

    static let chapter3: [Exercise] = [
        Exercise(
            id: "3.1", title: "A late completion", step: 3,
            kind: .change([
                Edit(
                    file: "ListViewController.swift", inside: "func startDownloadForRecord",
                    old: "            if downloader.isCancelled {\n                return\n            }\n",
                    new: "")
            ]),
            task:
                "In startDownloadForRecord, delete the `if downloader.isCancelled { return }` at the top of "
                + "the completion block. Predict what happens on slow-reuse.",
            commands: ["swift run Step3IdleOnly --scenario slow-reuse"],
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
            id: "3.2", title: "Make step 3 look worse than step 2", step: 3, kind: .run,
            task: "Write out/slow.scenario (a 30-second slow drag) and run steps 2 and 3 on it. "
                + "Predict which shows more grey.",
            commands: [
                "swift run Step2Background --scenario out/slow.scenario",
                "swift run Step3IdleOnly --scenario out/slow.scenario",
            ],
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
            id: "3.3", title: "More workers again", step: 3, kind: .run,
            task: "Run step 3 with --concurrency 3 and predict the wait.",
            commands: ["swift run Step3IdleOnly --concurrency 3"],
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
            id: "3.4", title: "Write loadImagesForOnscreenCells", step: 3,
            kind: .write([
                Blank(file: "ListViewController.swift", declaration: "func loadImagesForOnscreenCells")
            ]),
            task: """
                Write loadImagesForOnscreenCells(): the rows with a download or filtration pending, minus the \
                visible rows, are cancelled (cancel the operation and remove it from its map); the visible \
                rows minus the pending ones are started with startOperationsForMovieRecord. Sort each set \
                before looping over it.
                """,
            commands: ["swift run Course check 3.4"],
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
            id: "3.5", title: "Write the suspension and the scroll callbacks", step: 3,
            kind: .write([
                Blank(file: "ListViewController.swift", declaration: "func scrollViewWillBeginDragging"),
                Blank(file: "ListViewController.swift", declaration: "func scrollViewDidEndDragging"),
                Blank(file: "ListViewController.swift", declaration: "func scrollViewDidEndDecelerating"),
                Blank(file: "ListViewController.swift", declaration: "func suspendAllOperations"),
                Blank(file: "ListViewController.swift", declaration: "func resumeAllOperations"),
            ]),
            task: """
                Write suspendAllOperations() and resumeAllOperations() (set isSuspended on both queues), and \
                the three scroll callbacks: suspend when a drag begins; when the table stops (a drag that ends \
                without deceleration, or the end of deceleration) call loadImagesForOnscreenCells() and resume.
                """,
            commands: ["swift run Course check 3.5"],
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
            id: "3.6", title: "Write the cancellable ImageDownloader", step: 3,
            kind: .write([Blank(file: "ImageDownloader.swift", declaration: "func main")]),
            task: """
                Write ImageDownloader.main() again, now where cancelling happens: check isCancelled before the \
                blocking download and again after it, so a download cancelled while under way is never decoded.
                """,
            commands: ["swift run Course check 3.6"],
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

    // MARK: Chapter 4

    static let noCancelOnReuse = Edit(
        file: "MovieCell.swift", inside: "func prepareForReuse",
        old: "            imageLoad?.cancel()\n            imageLoad = nil\n",
        new: "")
    static let noSuspension = Edit(
        file: "ListViewController.swift", inside: "func scrollViewWillBeginDragging",
        old: "        suspendAllOperations()\n", new: "")

    static let chapter4: [Exercise] = [
        Exercise(
            id: "4.1", title: "A smaller memory cache", step: 4,
            kind: .change([
                Edit(
                    file: "ListViewController.swift", inside: "class ListViewController",
                    old: "? 5_000_000 : 0", new: "? 1_000_000 : 0")
            ]),
            task:
                "Change the memory cache's totalCostLimit from 5_000_000 to 1_000_000. Predict the caches and memory.",
            commands: ["swift run Step4CacheAndPrefetch"],
            hints: ["What the memory cache drops, the disk cache still has."],
            runs: [
                RunSpec(label: "course", step: .this, scenario: .builtIn("course")),
                RunSpec(
                    label: "no memory cache", step: .this, scenario: .builtIn("mix-up"),
                    options: ["--without", "memory-cache"]),
            ],
            expectations: [
                Expectation(
                    .metric("memory_cache_hits", of: "course"), .below,
                    .baseline("memory_cache_hits", of: "course"),
                    says: "memory_cache_hits should fall"),
                Expectation(
                    .metric("disk_cache_hits", of: "course"), .above,
                    .baseline("disk_cache_hits", of: "course"),
                    says: "disk_cache_hits should rise: the disk catches what memory dropped"),
                Expectation(
                    .metric("peak_image_memory_bytes", of: "course"), .below,
                    .baseline("peak_image_memory_bytes", of: "course"),
                    says: "peak_image_memory_bytes should fall"),
            ],
            mutants: [
                Mutant(
                    "the limit raised to 10_000_000", file: "ListViewController.swift",
                    inside: "class ListViewController", "? 5_000_000 : 0", "? 10_000_000 : 0",
                    shows: ["memory_cache_hits should fall"]),
                Mutant(
                    "the other branch changed, the one used left at 5_000_000",
                    file: "ListViewController.swift",
                    inside: "class ListViewController", "? 5_000_000 : 0", "? 5_000_000 : 1_000_000",
                    shows: ["memory_cache_hits should fall"]),
            ]),
        Exercise(
            id: "4.2", title: "No prefetch", step: 4,
            kind: .change([
                Edit(
                    file: "ListViewController.swift", inside: "class ListViewController",
                    old: "let prefetchDistance = 2", new: "let prefetchDistance = 0")
            ]),
            task: "Change prefetchDistance = 2 to 0. Predict the wait at reading pace.",
            commands: ["swift run Step4CacheAndPrefetch --scenario reading"],
            hints: [
                "Prefetch trades bytes for the user's time: look at time_to_visible_ms_p50 and bytes_wasted."
            ],
            runs: [RunSpec(label: "reading", step: .this, scenario: .builtIn("reading"))],
            expectations: [
                Expectation(
                    .metric("time_to_visible_ms_p50", of: "reading"), .above,
                    .baseline("time_to_visible_ms_p50", of: "reading"), says: "the typical wait should grow"),
                Expectation(
                    .metric("bytes_wasted", of: "reading"), .below, .baseline("bytes_wasted", of: "reading"),
                    says: "bytes_wasted should fall"),
            ],
            mutants: [
                Mutant(
                    "the prefetch made longer (4 rows) instead of turned off",
                    file: "ListViewController.swift",
                    inside: "class ListViewController", "let prefetchDistance = 2",
                    "let prefetchDistance = 4",
                    shows: ["wait should grow"]),
                Mutant(
                    "the prefetch made much longer (10 rows)", file: "ListViewController.swift",
                    inside: "class ListViewController", "let prefetchDistance = 2",
                    "let prefetchDistance = 10",
                    shows: ["wait should grow"]),
            ]),
        Exercise(
            id: "4.3", title: "Across runs", step: 4, kind: .run,
            task: "Run step 4 twice with the same --cache-dir. Predict the second run's requests.",
            commands: [
                "swift run Step4CacheAndPrefetch --cache-dir out/posters",
                "swift run Step4CacheAndPrefetch --cache-dir out/posters",
            ],
            hints: ["The disk cache is a real folder: the first run filled it."],
            runs: [
                RunSpec(
                    label: "first", step: .this, scenario: .builtIn("course"),
                    options: ["--cache-dir", "{cache}"]),
                RunSpec(
                    label: "second", step: .this, scenario: .builtIn("course"),
                    options: ["--cache-dir", "{cache}"]),
            ],
            expectations: [
                Expectation(
                    .metric("requests_started", of: "second"), .below,
                    .metric("requests_started", of: "first"),
                    times: 0.5, says: "the second run should need far fewer requests"),
                Expectation(
                    .metric("disk_cache_hits", of: "second"), .above, .metric("disk_cache_hits", of: "first"),
                    says: "the second run should hit the disk cache more"),
            ]),
        Exercise(
            id: "4.4", title: "Take the cancel out of reuse", step: 4, kind: .change([noCancelOnReuse]),
            task: "In MovieCell.prepareForReuse, delete `imageLoad?.cancel()` and `imageLoad = nil`. "
                + "Predict what happens on mix-up.",
            commands: ["swift run Step4CacheAndPrefetch --scenario mix-up --screens"],
            hints: ["Rows 13 and 15 share a poster: who still wants it when row 15's cell is reused?"],
            runs: [RunSpec(label: "mix-up", step: .this, scenario: .builtIn("mix-up"))],
            expectations: [
                Expectation(
                    .metric("wrong_image_events", of: "mix-up"), .above,
                    .baseline("wrong_image_events", of: "mix-up"),
                    says: "a row should show another row's poster")
            ],
            mutants: [
                Mutant(
                    "only the cancel deleted, the load still forgotten", file: "MovieCell.swift",
                    inside: "func prepareForReuse", "            imageLoad?.cancel()\n", "",
                    shows: ["another row's poster"]),
                Mutant(
                    "the image's clearing deleted instead", file: "MovieCell.swift",
                    inside: "func prepareForReuse", "        imageView.image = nil\n", "",
                    shows: ["another row's poster"]),
            ]),
        Exercise(
            id: "4.5", title: "Now watch wrong images appear", step: 4,
            kind: .change([noCancelOnReuse, noSuspension]),
            task: "Keep 4.4's change, and in scrollViewWillBeginDragging also delete suspendAllOperations(). "
                + "Predict, then run slow-reuse again.",
            commands: ["swift run Step4CacheAndPrefetch --scenario slow-reuse"],
            hints: ["A reused cell still holds the old load, so the guard lets the old poster through."],
            runs: [RunSpec(label: "slow-reuse", step: .this, scenario: .builtIn("slow-reuse"))],
            expectations: [
                Expectation(
                    .metric("wrong_image_events", of: "slow-reuse"), .above,
                    .baseline("wrong_image_events", of: "slow-reuse"), says: "wrong images should appear")
            ],
            mutants: [
                Mutant(
                    "only the suspension deleted, the cancel on reuse kept", [noSuspension],
                    shows: ["wrong images should appear"]),
                Mutant(
                    "only 4.4's change, the suspension kept", [noCancelOnReuse],
                    shows: ["wrong images should appear"]),
            ]),
        Exercise(
            id: "4.6", title: "Put the cancel back", step: 4, kind: .change([noSuspension]),
            task: "Put the two lines of prepareForReuse back, leaving the suspension out. Predict.",
            commands: ["swift run Step4CacheAndPrefetch --scenario slow-reuse"],
            hints: [
                "Cancelling on reuse (and forgetting the load) keeps a late answer out of a reused cell."
            ],
            runs: [RunSpec(label: "slow-reuse", step: .this, scenario: .builtIn("slow-reuse"))],
            expectations: [
                Expectation(.noWrongImage, on: "slow-reuse", says: "the wrong images should be gone"),
                Expectation(
                    .screenFilled, on: "slow-reuse",
                    says: "every row should still end with its poster: was suspendAllOperations() deleted, "
                        + "not the resume?"),
            ],
            mutants: [
                Mutant(
                    "the cancel left out too, as in 4.5", [noCancelOnReuse, noSuspension],
                    shows: ["wrong images should be gone"]),
                Mutant(
                    "the resume deleted instead of the suspension", file: "ListViewController.swift",
                    inside: "func scrollViewDidEndDecelerating", "        resumeAllOperations()\n", "",
                    shows: ["not the resume"]),
            ]),
        Exercise(
            id: "4.7", title: "Write prepareForReuse and the guard", step: 4,
            kind: .write([
                Blank(file: "MovieCell.swift", declaration: "func prepareForReuse"),
                Blank(
                    file: "ListViewController.swift", declaration: "func finishLoads",
                    statement: "guard let cell = load.cell"),
            ]),
            task: """
                Write MovieCell.prepareForReuse(): call super, give up the cell's imageLoad (cancel it and set \
                it to nil) and clear the image. In finishLoads(for:with:), write the guard: draw only into a \
                cell (load.cell) whose imageLoad is still this very load (===); skip the load otherwise.
                """,
            commands: ["swift run Course check 4.7"],
            hints: [
                "prepareForReuse: super.prepareForReuse(); imageLoad?.cancel(); imageLoad = nil; imageView.image = nil",
                "The cell is weak: `guard let cell = load.cell, cell.imageLoad === load else { continue }`.",
            ],
            runs: [
                RunSpec(label: "slow-reuse", step: .this, scenario: .builtIn("slow-reuse")),
                RunSpec(label: "mix-up", step: .this, scenario: .builtIn("mix-up")),
                RunSpec(
                    label: "slow-reuse without cancel-on-reuse", step: .this,
                    scenario: .builtIn("slow-reuse"),
                    options: ["--without", "cancel-on-reuse"]),
            ],
            expectations: [
                Expectation(
                    .noWrongImage, on: "slow-reuse", says: "no cell should show another row's poster"),
                Expectation(
                    .noWrongImage, on: "mix-up",
                    says:
                        "a poster that arrives for a row that left must not land in its reused cell: check "
                        + "prepareForReuse (cancel the cell's load and forget it) and the guard in finishLoads"
                ),
                Expectation(.screenFilled, on: "slow-reuse", says: "every row should end with its poster"),
                Expectation(
                    .metric("operations_cancelled", of: "slow-reuse"), .atLeast,
                    .baseline("operations_cancelled", of: "slow-reuse"),
                    says: "a reused cell should give up its load"),
                Expectation(
                    .metric("bytes_wasted", of: "slow-reuse"), .atMost,
                    .baseline("bytes_wasted", of: "slow-reuse"),
                    times: 1.1, says: "loads for rows that left should stop, not waste bytes"),
                Expectation(
                    .metric("operations_cancelled", of: "slow-reuse without cancel-on-reuse"), .atMost,
                    .baseline("operations_cancelled", of: "slow-reuse without cancel-on-reuse"),
                    says:
                        "with --without cancel-on-reuse a reused cell should keep its load: prepareForReuse "
                        + "cancels only when cancelsLoadOnReuse is set"),
            ],
            // A guard that leaves finishLoads at a skipped load, not only the load, changes no figure of
            // these runs: the loads it never removes stay in loadsInProgress, which the test reads.
            tests: "stepFourLeavesNothing",
            mutants: [
                Mutant(
                    "prepareForReuse cancels even when cancel-on-reuse is off", file: "MovieCell.swift",
                    inside: "func prepareForReuse", "        if cancelsLoadOnReuse {\n",
                    "        if true {\n",
                    shows: ["cancelsLoadOnReuse"]),
                Mutant(
                    "a guard without the identity test", file: "ListViewController.swift",
                    inside: "func finishLoads",
                    ", cell.imageLoad === load || !techniques.contains(.cancelOnReuse)", "",
                    shows: ["the guard"]),
                Mutant(
                    "a load cancelled on reuse but not forgotten", file: "MovieCell.swift",
                    inside: "func prepareForReuse", "            imageLoad = nil\n", "",
                    shows: ["prepareForReuse", "forget"]),
                Mutant(
                    "a prepareForReuse that keeps the cell's load (only clears the image)", [noCancelOnReuse],
                    shows: ["prepareForReuse", "cancel"]),
                Mutant(
                    "a return instead of continue in the guard", file: "ListViewController.swift",
                    inside: "func finishLoads", "            else { continue }",
                    "            else { return }", byTests: true,
                    shows: ["left in loadsInProgress at the end"]),
                Mutant(
                    "the load forgotten before it is cancelled", file: "MovieCell.swift",
                    inside: "func prepareForReuse",
                    "            imageLoad?.cancel()\n            imageLoad = nil\n",
                    "            imageLoad = nil\n            imageLoad?.cancel()\n",
                    shows: ["give up its load"]),
            ]),
        Exercise(
            id: "4.8", title: "Write the cost-bounded LRU", step: 4,
            kind: .write([Blank(file: "ImageCache.swift", declaration: "func setImage")]),
            task: """
                Write ImageCache.setImage(_:forKey:): store the entry with its cost and a fresh use stamp \
                (replacing an old entry's cost), then evict the least recently used entries until totalCost \
                fits totalCostLimit.
                """,
            commands: ["swift run Course check 4.8"],
            hints: [
                "clock += 1 gives a fresh stamp; subtract an old entry's cost before adding the new one.",
                "while totalCost > totalCostLimit, let oldest = entries.min(by: { $0.value.lastUse < $1.value.lastUse })",
            ],
            runs: [
                RunSpec(label: "course", step: .this, scenario: .builtIn("course")),
                RunSpec(label: "long-fling", step: .this, scenario: .builtIn("long-fling")),
                RunSpec(label: "step 3", step: .previous, scenario: .builtIn("long-fling")),
                // Rows 13 and 15 share a poster; with a load per row, its second arrival replaces the entry.
                RunSpec(
                    label: "a poster stored twice", step: .this, scenario: .builtIn("mix-up"),
                    options: ["--without", "one-load-per-url"]),
            ],
            expectations: [
                Expectation(
                    .metric("memory_cache_hits", of: "course"), .atLeast,
                    .baseline("memory_cache_hits", of: "course"),
                    says: "revisited rows should come from memory as often as with the code as shipped"),
                Expectation(
                    .metric("peak_image_memory_bytes", of: "long-fling"), .below,
                    .metric("peak_image_memory_bytes", of: "step 3"),
                    says: "the cost bound should keep memory below step 3's"),
                Expectation(
                    .metric("peak_image_memory_bytes", of: "long-fling"), .atMost,
                    .baseline("peak_image_memory_bytes", of: "long-fling"),
                    says: "memory should stay within the bound"),
            ],
            tests: "ImageCacheTests|stepFourBoundsMemory",
            mutants: [
                Mutant(
                    "an LRU that evicts the newest", file: "ImageCache.swift", inside: "func setImage",
                    "entries.min(by:", "entries.max(by:", shows: ["memory"]),
                Mutant(
                    "a cost counted twice", file: "ImageCache.swift", inside: "func setImage",
                    "        totalCost += image.cost\n", "        totalCost += image.cost * 2\n",
                    shows: ["memory"]),
                Mutant(
                    "a cost never added to the total", file: "ImageCache.swift", inside: "func setImage",
                    "        totalCost += image.cost\n", "", shows: ["memory"]),
                Mutant(
                    "a replaced entry's old cost kept in the total", file: "ImageCache.swift",
                    inside: "func setImage", "        if let old = entries[url] { totalCost -= old.cost }\n",
                    "",
                    byTests: true, shows: ["cost"]),
                Mutant(
                    "an off-by-one: evicting while the total is at the limit", file: "ImageCache.swift",
                    inside: "func setImage", "while totalCost > totalCostLimit,",
                    "while totalCost >= totalCostLimit,",
                    byTests: true, shows: ["fit the limit"]),
                Mutant(
                    "one eviction at most (if for while)", file: "ImageCache.swift", inside: "func setImage",
                    "while totalCost > totalCostLimit,", "if totalCost > totalCostLimit,", byTests: true,
                    shows: ["limit"]),
            ]),
        Exercise(
            id: "4.9", title: "Write the hashed disk-cache name", step: 4,
            kind: .write([
                Blank(
                    file: "DiskCache.swift", declaration: "func fileURL",
                    placeholder: "fatalError(\"exercise 4.9: name the file after a hash of the whole URL\")")
            ]),
            task: """
                Write DiskCache.fileURL(for:): a file in `directory` named after a hash of the whole URL \
                (FNV1a64.hexDigest(of:) of its absoluteString) with the extension .poster, so two URLs that \
                end in the same file name never share a file.
                """,
            commands: ["swift run Course check 4.9"],
            hints: [
                "url.lastPathComponent is not enough: …/spst/…/p2271600704.png and …/mpst/…/p2271600704.png collide.",
                "directory.appendingPathComponent(FNV1a64.hexDigest(of: url.absoluteString) + \".poster\")",
            ],
            runs: [
                RunSpec(label: "relaunch", step: .this, scenario: .builtIn("relaunch")),
                RunSpec(label: "shared name", step: .this, scenario: sharedName),
                RunSpec(
                    label: "first", step: .this, scenario: .builtIn("relaunch"),
                    options: ["--cache-dir", "{cache}"]
                ),
                RunSpec(
                    label: "again", step: .this, scenario: .builtIn("relaunch"),
                    options: ["--cache-dir", "{cache}"]
                ),
                RunSpec(label: "colliding names", step: .this, scenario: collidingNames),
                RunSpec(label: "repeated rows", step: .this, scenario: repeatedRows),
            ],
            expectations: [
                Expectation(.noWrongImage, on: "relaunch", says: "no cell should show another row's poster"),
                Expectation(
                    .metric("requests_started", of: "shared name"), .atMost,
                    .baseline("requests_started", of: "shared name"),
                    says:
                        "rows 24 and 27, whose URLs end in the same file name, should each keep their own file"
                ),
                Expectation(
                    .metric("requests_started", of: "again"), .atMost,
                    .baseline("requests_started", of: "again"),
                    says: "a second run with the same --cache-dir should find the files the first wrote"),
                Expectation(
                    .metric("disk_cache_hits", of: "relaunch"), .atLeast,
                    .baseline("disk_cache_hits", of: "relaunch"),
                    says: "relaunches should be served from disk"),
                Expectation(
                    .metric("requests_started", of: "relaunch"), .atMost,
                    .baseline("requests_started", of: "relaunch"),
                    says: "no poster should be downloaded again because its file was another's"),
                Expectation(
                    .metric("disk_cache_hits", of: "repeated rows"), .atLeast,
                    .baseline("disk_cache_hits", of: "repeated rows"),
                    says: "a repeated row's address differs from its original's only by ?copy=1: the name "
                        + "must hash the whole URL, its query too, or the relaunch finds the wrong file"),
            ],
            tests: "DiskCacheDamageTests|stepFourRelaunchesFromDisk|DiskCacheNameTests",
            mutants: [
                Mutant(
                    "a name of eight hex digits, too short for the largest catalog", file: "DiskCache.swift",
                    inside: "func fileURL", "FNV1a64.hexDigest(of: url.absoluteString) + \".poster\"",
                    "String(FNV1a64.hexDigest(of: url.absoluteString).prefix(8)) + \".poster\"",
                    byTests: true,
                    shows: ["long enough to be unique"]),
                Mutant(
                    "a file named after url.lastPathComponent", file: "DiskCache.swift",
                    inside: "func fileURL",
                    "FNV1a64.hexDigest(of: url.absoluteString) + \".poster\"", "url.lastPathComponent",
                    shows: ["rows 24 and 27"]),
                Mutant(
                    "a hash of the last path component only", file: "DiskCache.swift", inside: "func fileURL",
                    "url.absoluteString", "url.lastPathComponent", shows: ["rows 24 and 27"]),
                Mutant(
                    "a name from hashValue, which changes from run to run", file: "DiskCache.swift",
                    inside: "func fileURL", "FNV1a64.hexDigest(of: url.absoluteString)",
                    "String(url.absoluteString.hashValue)", shows: ["second run"]),
                Mutant(
                    "the whole URL as the file name", file: "DiskCache.swift", inside: "func fileURL",
                    "FNV1a64.hexDigest(of: url.absoluteString) + \".poster\"", "url.absoluteString",
                    shows: ["should each keep their own file"]),
                Mutant(
                    "a name without the .poster extension", file: "DiskCache.swift", inside: "func fileURL",
                    "FNV1a64.hexDigest(of: url.absoluteString) + \".poster\"",
                    "FNV1a64.hexDigest(of: url.absoluteString)", byTests: true,
                    shows: ["poster files in the disk cache"]),
            ]),
    ]

    /// Rows 24 and 27 of the catalog: URLs that end in the same file name (`…/spst/…/p2271600704.png`
    /// and `…/mpst/…/p2271600704.png`), loaded, then loaded again from disk after a relaunch.
    static let sharedName = ScenarioChoice.file(
        path: "out/shared-name.scenario",
        make: .text(
            """
            # Rows 24 and 27 have URLs with the same last path component.
            rows 60
            seed 7
            wait 3s
            drag to row 20 over 1s
            wait 5s
            relaunch
            wait 3s
            drag to row 20 over 1s
            wait 5s

            """))

    /// The first screen, then the same posters' repeats past the catalog's end (the same addresses with
    /// `?copy=1`), then a relaunch back at the top: a name that leaves the query out makes each repeat
    /// take its original's file, so the relaunch downloads the first screen again.
    static let repeatedRows = ScenarioChoice.file(
        path: "out/repeated-rows.scenario",
        make: .text(
            """
            rows 500
            seed 7
            network rtt=60ms jitter=10ms bandwidth=2000KB/s connections=6 timeout=10s
            wait 1.5s
            fling to row 238
            wait 1.5s
            relaunch
            wait 1.5s

            """))

    /// Rows 3 and 230, and rows 27 and 182: URLs whose hashes share their first three hex digits, all
    /// loaded, then loaded again after a relaunch, so a name cut short makes two posters share a file and
    /// the relaunch download again.
    static let collidingNames = ScenarioChoice.file(
        path: "out/colliding-names.scenario",
        make: .text(
            """
            rows 240
            seed 7
            wait 3s
            drag to row 24 over 1s
            wait 3s
            fling to row 178
            wait 3s
            fling to row 228
            wait 3s
            relaunch
            wait 3s
            drag to row 24 over 1s
            wait 3s
            fling to row 178
            wait 3s
            fling to row 228
            wait 3s

            """))

    // MARK: Chapter 5

    static let chapter5: [Exercise] = [
        Exercise(
            id: "5.1", title: "Write the actor's one load per URL", step: 5,
            kind: .write([
                Blank(
                    file: "ImageLoader.swift", declaration: "func image",
                    placeholder: "fatalError(\"exercise 5.1: write image(for:)\")")
            ]),
            task: """
                Write ImageLoader.image(for:): without oneLoadPerURL, just loadImage(from:). Otherwise join \
                the URL's load in loadsInProgress (or startLoad(for:) one), count this row in its waiting, and \
                await its task's value inside withTaskCancellationHandler, whose handler tells the actor, in \
                a Task on the executor, that the row gave up (loadCancelled(_:number:)). However the wait \
                ends, forget the load if it is still the one listed.
                """,
            commands: ["swift run Course check 5.1"],
            hints: [
                "var load = loadsInProgress[url] ?? startLoad(for: url); load.waiting += 1; "
                    + "loadsInProgress[url] = load (a struct: write it back).",
                "The handler runs on the thread that cancels, off the actor: "
                    + "Task(executorPreference: executor) { await self.loadCancelled(url, number: number) }.",
                "defer { if loadsInProgress[url]?.number == load.number { loadsInProgress[url] = nil } }, "
                    + "then return try await withTaskCancellationHandler { try await load.task.value } onCancel: …",
            ],
            runs: [
                RunSpec(label: "course", step: .this, scenario: .builtIn("course")),
                RunSpec(label: "slow-reuse", step: .this, scenario: .builtIn("slow-reuse")),
                RunSpec(label: "flaky", step: .this, scenario: .builtIn("flaky")),
                RunSpec(label: "mix-up", step: .this, scenario: .builtIn("mix-up")),
                RunSpec(
                    label: "a load per row", step: .this, scenario: .builtIn("mix-up"),
                    options: ["--without", "one-load-per-url"]),
            ],
            expectations: [
                Expectation(.screenFilled, on: "slow-reuse", says: "every row should end with its poster"),
                Expectation(
                    .metric("duplicate_downloads", of: "course"), .atMost,
                    .baseline("duplicate_downloads", of: "course"),
                    says: "a row that wants a poster already on its way should join its load"),
                Expectation(
                    .metric("bytes_downloaded", of: "slow-reuse"), .atMost,
                    .baseline("bytes_downloaded", of: "slow-reuse"), times: 1.05,
                    says: "a load should be cancelled when, and only when, no row waits for it any more: "
                        + "does the handler reach the actor, and is every row that joins counted?"),
                Expectation(.noWrongImage, on: "mix-up", says: "no row should show another row's poster"),
                Expectation(
                    .finalScreenAsShipped, on: "flaky",
                    says: "a row whose load failed should try again at the next stop: is the load forgotten?"),
            ],
            tests: "Step5ImageLoaderTests",
            mutants: [
                Mutant(
                    "every row starts its own load", file: "ImageLoader.swift", inside: "func image",
                    "loadsInProgress[url] ?? startLoad(for: url)", "startLoad(for: url)",
                    shows: ["join its load"]),
                Mutant(
                    "a row that joins is not counted", file: "ImageLoader.swift", inside: "func image",
                    "        load.waiting += 1\n", "", shows: ["every row that joins counted"]),
                Mutant(
                    "a cancellation handler that never tells the actor", file: "ImageLoader.swift",
                    inside: "func image",
                    "Task(executorPreference: executor) { await self.loadCancelled(url, number: number) }",
                    "_ = number", shows: ["handler reach the actor"]),
                Mutant(
                    "a finished load never forgotten", file: "ImageLoader.swift", inside: "func image",
                    "if loadsInProgress[url]?.number == load.number { loadsInProgress[url] = nil }",
                    "_ = load", shows: ["load forgotten"]),
                Mutant(
                    "a new load never written back to loadsInProgress", file: "ImageLoader.swift",
                    inside: "func image", "        loadsInProgress[url] = load\n", "",
                    shows: ["every row that joins counted"]),
                Mutant(
                    "the end of a wait forgets whatever load is listed", file: "ImageLoader.swift",
                    inside: "func image",
                    "if loadsInProgress[url]?.number == load.number { loadsInProgress[url] = nil }",
                    "loadsInProgress[url] = nil", byTests: true, shows: ["no longer the one it waited for"]),
            ]),
        Exercise(
            id: "5.2", title: "Without cancel on reuse", step: 5, kind: .run,
            task: """
                Predict: with --without cancel-on-reuse (no cancel in prepareForReuse, no guard after the \
                await), does step 5 show the same wrong picture as step 4 on mix-up?
                """,
            commands: [
                "swift run Step5Concurrency --scenario mix-up --without cancel-on-reuse",
                "swift run Step4CacheAndPrefetch --scenario mix-up --without cancel-on-reuse",
            ],
            hints: ["Look at wrong_image_events and late_completions in both reports."],
            runs: [
                RunSpec(
                    label: "step 5", step: .this, scenario: .builtIn("mix-up"),
                    options: ["--without", "cancel-on-reuse"]),
                RunSpec(
                    label: "step 4", step: .previous, scenario: .builtIn("mix-up"),
                    options: ["--without", "cancel-on-reuse"]),
            ],
            expectations: [
                Expectation(
                    .metric("wrong_image_events", of: "step 5"), .above, .number(0),
                    says: "a task that was not cancelled should draw into the cell its row left"),
                Expectation(
                    .metric("wrong_image_events", of: "step 5"), .equal,
                    .metric("wrong_image_events", of: "step 4"),
                    says: "the translation should make step 4's mistake, no more, no less"),
            ]),
    ]

    /// A slow network with loads still waiting for a download slot when a fling begins: a transfer that
    /// ends during the fling frees a slot the suspended line must not hand out.
    static let flingWhileWaiting = ScenarioChoice.file(
        path: "out/fling-while-waiting.scenario",
        make: .text(
            """
            rows 60
            seed 23
            network rtt=800ms jitter=300ms bandwidth=150KB/s connections=6 timeout=15s
            wait 1s
            fling to row 40
            wait 3s

            """))

    static let chapter6: [Exercise] = [
        Exercise(
            id: "6.1", title: "Write the download slots' hand-out", step: 6,
            kind: .write([
                Blank(
                    file: "DownloadSlots.swift", declaration: "private static func startNext",
                    placeholder: "fatalError(\"exercise 6.1: hand the free slots to the most eager waiters\")"
                )
            ]),
            task: """
                Write DownloadSlots.startNext(_:limit:): while a slot is free (state.inUse < limit), take the \
                most eager waiter (mostEager); while the user scrolls (state.isSuspended) stop unless visible \
                rows may start (state.visibleRowsMayStart) and this waiter is a visible row's (priority at \
                least .userInitiated); otherwise count the slot, remove the waiter from the line and return its \
                continuation with the others, to be resumed outside the lock.
                """,
            commands: ["swift run Course check 6.1"],
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

    // MARK: Added by teachers

    /// Exercises a teacher adds go here (or into their chapter's list).
    static let added: [Exercise] = [
        // Teachers: add exercises above this line.
    ]
}
