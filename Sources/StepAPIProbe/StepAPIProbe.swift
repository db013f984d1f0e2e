import Shared

// The step API, each name used once as a step uses it: what the steps use and what else both `Shared`s offer
// a step. It compiles in this package, against the simulator's `Shared` (and, in `Scripts/check-public-api`,
// against its public API only), and in Live, against the live twins (`Live/Sources/StepAPIProbe` links this
// folder), so a name or a signature one side lacks fails a build before a step needs it. Nothing here runs.

/// A step's cell: `TableViewCell`, its views and the spinner.
final class ProbeCell: TableViewCell {
    override func prepareForReuse() {
        super.prepareForReuse()
        let label: Label = textLabel
        label.text = reuseIdentifier
        let view: ImageView = imageView
        view.image = view.image?.kind == .placeholder ? Image.failed : Image.placeholder
        let spinner = ActivityIndicatorView()
        spinner.startAnimating()
        spinner.stopAnimating()
        accessoryView = spinner.isAnimating ? spinner : nil
    }
}

/// A step's screen: every method of `TableViewController` it may override, and what its table offers.
final class ProbeViewController: TableViewController, @unchecked Sendable {
    @MainThreadOnly("probeState") var probeState: [IndexPath: Operation] = [:]
    lazy var device: Phone = phone
    lazy var movies: [Movie] = device.movies

    override func viewDidLoad() {
        tableView.register(ProbeCell.self, forCellReuseIdentifier: "Cell")
        tableView.prefetchDistance = 5
        tableView.reloadData()
    }

    override func didReceiveMemoryWarning() { probeState = [:] }

    override func tableView(_ tableView: TableView, numberOfRowsInSection section: Int) -> Int {
        movies.count
    }

    override func tableView(_ tableView: TableView, cellForRowAt indexPath: IndexPath) -> TableViewCell {
        let cell = tableView.dequeueReusableCell(withIdentifier: "Cell", for: indexPath)
        cell.textLabel.text = movies[indexPath.row].name
        return cell
    }

    override func tableView(
        _ tableView: TableView, didEndDisplaying cell: TableViewCell, forRowAt indexPath: IndexPath
    ) {
        probeState[indexPath]?.cancel()
    }

    override func tableView(_ tableView: TableView, prefetchRowsAt indexPaths: [IndexPath]) {
        let shown = indexPaths.filter { tableView.cellForRow(at: $0) != nil }
        for animation in [TableView.RowAnimation.none, .fade, .automatic] {
            tableView.reloadRows(at: shown, with: animation)
        }
    }

    override func tableView(_ tableView: TableView, cancelPrefetchingForRowsAt indexPaths: [IndexPath]) {
        for indexPath in indexPaths where indexPath.section == 0 { probeState[indexPath] = nil }
    }

    override func scrollViewWillBeginDragging(_ scrollView: TableView) {}

    override func scrollViewDidScroll(_ scrollView: TableView) {
        let rows: [IndexPath] = scrollView.indexPathsForVisibleRows ?? []
        _ = rows
    }

    override func scrollViewWillEndDragging(
        _ scrollView: TableView, withVelocity velocity: Double, targetContentOffset: Double
    ) {
        let bottom = targetContentOffset + scrollView.viewportHeight + velocity * scrollView.decelerationRate
        _ = scrollView.indexPathsForRows(from: targetContentOffset, to: bottom)
        _ = (scrollView.rowHeight, scrollView.contentOffset, scrollView.isDragging, scrollView.isDecelerating)
    }

    override func scrollViewDidEndDragging(_ scrollView: TableView, willDecelerate decelerate: Bool) {}

    override func scrollViewDidEndDecelerating(_ scrollView: TableView) {}
}

/// A step's operation: `Operation`'s state, its dependencies and priority, on the queues.
final class ProbeOperation: Operation, @unchecked Sendable {
    let url: URL

    init(url: URL) {
        self.url = url
        super.init()
    }

    override func main() {
        if isCancelled { return }
        // The articles' blocking download, and the one its operation can cancel.
        let blocking: Data? = Network.shared.data(contentsOf: url)
        let cancellable = try? Network.shared.data(from: url, cancellingWith: self)
        var resumeData: ResumeData?
        let resumed = try? Network.shared.data(from: url, cancellingWith: self, resumeData: &resumeData)
        guard let data = blocking ?? cancellable ?? resumed, let image = Image(data: data) else { return }
        let fitted = Image(data: data, fittingPixels: image.bitmap.width, image.bitmap.height)
        _ = (fitted?.applyingSepia(intensity: 0.8).cost, isExecuting, isFinished, isReady)
        let kinds: [Image.Kind] = [.poster, .placeholder, .failure]
        _ = kinds.contains(image.kind)
    }

    override func cancel() {
        super.cancel()
    }
}

/// The queues a step makes, and what it adds to them.
func probeQueues(_ url: URL) {
    let queue = OperationQueue()
    queue.name = "Probe queue"
    queue.maxConcurrentOperationCount = OperationQueue.defaultMaxConcurrentOperationCount
    queue.maxConcurrentOperationCount = 1
    queue.isSuspended = false
    let first = ProbeOperation(url: url)
    let second = BlockOperation {}
    second.addDependency(first)
    second.removeDependency(first)
    first.queuePriority = .high
    let priority: Operation.QueuePriority = first.queuePriority
    second.queuePriority = priority
    first.name = "Probe"
    first.completionBlock = {
        OperationQueue.main.addOperation {}
    }
    queue.addOperation(first)
    queue.addOperation(second)
    queue.addOperation {}
    BlockOperation(block: {}).start()
    _ = (queue.operations.count, queue.operationCount, first.dependencies.count)
    queue.cancelAllOperations()
}

/// The disk cache's calls, the instruments a cache reports to, and the seal of its entries.
func probeDisk(_ url: URL, image: Image) {
    let disk = Disk.shared
    let folder = disk.cachesDirectory.appendingPathComponent("Probe")
    _ = disk.createDirectory(at: folder)
    let file = folder.appendingPathComponent(FNV1a64.hexDigest(of: url.absoluteString) + ".poster")
    if disk.fileExists(at: file), !disk.isFolder(at: file), let size = disk.fileSize(at: file), size > 0 {
        _ = disk.contents(of: file)
    }
    _ = disk.write(Data(disk.seal([1, 2, 3], name: url.absoluteString).utf8), to: file, atomically: true)
    disk.removeItem(at: file)
    Instruments.memoryCacheLookup(url, hit: false)
    Instruments.memoryCacheStored(url, cost: image.cost, limit: 1 << 20)
    Instruments.diskCacheHit()
    Instruments.diskCacheOff(reason: "probe")
    Instruments.diskCacheMismatch(file: file.lastPathComponent, requested: url.absoluteString, found: "")
}

/// Swift concurrency as steps 5 and 6 use it: the executor, the network, the clock and the main actor.
func probeConcurrency(_ url: URL, controller: ProbeViewController) async throws {
    let executor = SimulatedTaskExecutor(name: "Probe pool", width: 2)
    let network = AsyncNetwork()
    let kept = Mutex([URL: ResumeData]())
    let task = Task(executorPreference: executor, priority: Task.currentPriority) {
        try await network.data(from: url, resumeData: nil) { resume in kept.withLock { $0[url] = resume } }
    }
    do {
        _ = try await task.value
    } catch let error as NetworkError {
        _ = error.isTransient
    }
    let clock = PhoneClock()
    let start: PhoneClock.Instant = clock.now
    try await clock.sleep(for: clock.minimumResolution)
    try await clock.sleep(until: start.advanced(by: .milliseconds(1)), tolerance: nil)
    _ = start.duration(to: clock.now)
    _ = await MainActorProbe.rows(of: controller)
}

/// `PhoneMainActor`'s two `assumeIsolated`, and a type isolated to it.
@PhoneMainActor
enum MainActorProbe {
    static func rows(of controller: ProbeViewController) -> Int {
        controller.tableView.indexPathsForVisibleRows?.count ?? 0
    }

    nonisolated static func assume(_ controller: ProbeViewController) -> Int {
        let count = PhoneMainActor.assumeIsolated(controller) { controller in rows(of: controller) }
        return count + PhoneMainActor.assumeIsolated { 0 }
    }
}

/// A step's rows: `RowRecords` of a step's own `RowRecord`.
final class ProbeRecord: RowRecord {
    let movie: Movie
    var url: URL? { movie.url }

    init(movie: Movie) {
        self.movie = movie
    }
}

/// What a step tells the harness, and how its `main.swift` starts.
enum ProbeStep: WorkbookStep {
    static let name = "StepAPIProbe"
    static let summary = "every name a step may use"
    static let techniques = ["probe"]

    static func makeApp(_ options: RunOptions) -> TableViewController {
        _ = (options.concurrency ?? 1, options.without, RunOptions())
        let records = RowRecords<ProbeRecord>([])
        _ = records.count > 0 ? records[0].url : nil
        return PhoneMainActor.assumeIsolated { ProbeViewController() }
    }

    static func start() -> Never { Workbook.main(ProbeStep.self) }

    static func startByName() -> Never {
        Workbook.main(step: name, summary: summary, techniques: techniques, makeApp: makeApp)
    }
}
