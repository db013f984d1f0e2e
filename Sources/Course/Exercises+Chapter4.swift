/// The exercises of chapter 4 and the scenarios they play.
extension Exercises {
    static let noCancelOnReuse = Edit(
        file: "MovieCell.swift", inside: "func prepareForReuse",
        old: "            imageLoad?.cancel()\n            imageLoad = nil\n",
        new: "")
    static let noSuspension = Edit(
        file: "ListViewController.swift", inside: "func scrollViewWillBeginDragging",
        old: "        suspendAllOperations()\n", new: "")

    static let chapter4: [Exercise] = [
        Exercise(
            id: "4.1", step: 4,
            kind: .change([
                Edit(
                    file: "ListViewController.swift", inside: "class ListViewController",
                    old: "? 5_000_000 : 0", new: "? 1_000_000 : 0")
            ]),
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
            id: "4.2", step: 4,
            kind: .change([
                Edit(
                    file: "ListViewController.swift", inside: "class ListViewController",
                    old: "let prefetchDistance = 2", new: "let prefetchDistance = 0")
            ]),
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
            id: "4.3", step: 4, kind: .run,
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
            id: "4.4", step: 4, kind: .change([noCancelOnReuse]),
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
            id: "4.5", step: 4,
            kind: .change([noCancelOnReuse, noSuspension]),
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
            id: "4.6", step: 4, kind: .change([noSuspension]),
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
            id: "4.7", step: 4,
            kind: .write([
                Blank(file: "MovieCell.swift", declaration: "func prepareForReuse"),
                Blank(
                    file: "ListViewController.swift", declaration: "func finishLoads",
                    statement: "guard let cell = load.cell"),
            ]),
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
            id: "4.8", step: 4,
            kind: .write([Blank(file: "ImageCache.swift", declaration: "func setImage")]),
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
            id: "4.9", step: 4,
            kind: .write([
                Blank(
                    file: "DiskCache.swift", declaration: "func fileURL",
                    placeholder: "fatalError(\"exercise 4.9: name the file after a hash of the whole URL\")")
            ]),
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

}
