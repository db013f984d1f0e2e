/// The exercises of chapter 2 and the scenarios they play.
extension Exercises {
    static let chapter2: [Exercise] = [
        Exercise(
            id: "2.1", step: 2, kind: .run,
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
            id: "2.2", step: 2,
            kind: .change([
                Edit(
                    file: "ImageDownloader.swift", inside: "func main",
                    old: "        if isCancelled {\n            return\n        }\n", new: "", occurrence: 2)
            ]),
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
            id: "2.3", step: 2, kind: .run,
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
            id: "2.4", step: 2,
            kind: .write([Blank(file: "ImageDownloader.swift", declaration: "func main")]),
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
            id: "2.5", step: 2,
            kind: .write([Blank(file: "ListViewController.swift", declaration: "func startDownloadForRecord")]
            ),
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
}
