/// The exercises of chapter 5 and the scenarios they play.
extension Exercises {
    static let chapter5: [Exercise] = [
        Exercise(
            id: "5.1", step: 5,
            kind: .write([
                Blank(
                    file: "ImageLoader.swift", declaration: "func image",
                    placeholder: "fatalError(\"exercise 5.1: write image(for:)\")")
            ]),
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
            id: "5.2", step: 5, kind: .run,
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
}
