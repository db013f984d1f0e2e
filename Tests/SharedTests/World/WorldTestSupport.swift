import Foundation
import Shared
import TestSupport
import Testing

@testable import Catalog
@testable import Runtime
@testable import UI
@testable import World

// The simulated phone's look-alikes, not Foundation's types of the same names.
typealias Operation = Shared.Operation
typealias OperationQueue = Shared.OperationQueue
typealias BlockOperation = Shared.BlockOperation
typealias IndexPath = Shared.IndexPath

/// One 60 Hz frame in microseconds, as a fraction (16 666⅔ µs).
let framePeriod = 1_000_000.0 / 60.0

/// What the app saw during a run, written on simulated threads and read by the test after the run.
///
/// Only the thread holding the scheduler's baton runs, and the test reads after `Phone.run` returned, so
/// plain properties are safe.
final class Log: @unchecked Sendable {
    /// One observation: when, on which simulated thread, what, and an optional number.
    struct Note {
        let time: Int64
        let thread: String
        let text: String
        let value: Double
    }

    private(set) var notes: [Note] = []
    /// Objects the test wants to see released by the end of the run.
    var weakObjects: [WeakBox] = []
    /// Objects the test wants to inspect after the run.
    var kept: [AnyObject] = []
    /// Operations running at this moment (for concurrency checks) and the most seen at once.
    var running = 0
    var mostRunning = 0

    /// Records an observation at the current virtual time, on the current simulated thread.
    func note(_ text: String, _ value: Double = 0) {
        let thread = SimulatedThread.current!
        notes.append(Note(time: Phone.current!.now, thread: thread.name, text: text, value: value))
    }

    /// The observations with exactly this text, in order.
    func all(_ text: String) -> [Note] { notes.filter { $0.text == text } }

    /// The first observation with exactly this text.
    func first(_ text: String) -> Note? { notes.first { $0.text == text } }

    /// The texts in order, keeping only those that start with a prefix.
    func texts(prefix: String) -> [String] { notes.map(\.text).filter { $0.hasPrefix(prefix) } }
}

/// A weak reference, to check that something was released.
final class WeakBox {
    weak var object: AnyObject?
    init(_ object: AnyObject) { self.object = object }
}

/// Test movies with equal-length URLs on one host: `http://posters.test/p/0000.png`, …
func testMovies(_ count: Int, host: String = "posters.test") -> [Movie] {
    (0..<count).map { index in
        let number = String(index)
        let padded = String(repeating: "0", count: max(0, 4 - number.count)) + number
        return Movie(name: "Movie \(index)", urlString: "http://\(host)/p/\(padded).png")
    }
}

/// A scenario built in code: default screen (667 pt viewport, 88 pt rows, 60 Hz), no jitter unless set.
func testScenario(
    _ name: String, rows: Int, actions: [ScenarioAction] = [], rtt: Int64 = 100_000, jitter: Int64 = 0,
    bandwidth: Int64 = 1_000_000, connections: Int = 6
) -> Scenario {
    var scenario = Scenario(name: name, source: "test:\(name)")
    scenario.rows = rows
    scenario.network.rttMicroseconds = rtt
    scenario.network.jitterMicroseconds = jitter
    scenario.network.bandwidthBytesPerSecond = bandwidth
    scenario.network.connectionsPerHost = connections
    scenario.screen = ScreenSettings()
    scenario.actions = actions
    return scenario
}

/// Plays a scenario with a test app.
func play(
    _ scenario: Scenario, seed: UInt64 = 1, movies: [Movie]? = nil,
    makeApp: @escaping () -> TableViewController
) throws -> RunResult {
    try Phone.run(
        step: "WorldTest", scenario: scenario, seed: seed, movies: movies ?? testMovies(scenario.rows),
        makeApp: makeApp)
}

/// Plays a scenario with a `ScriptApp` that logs to `log` and ends its `viewDidLoad` with `onLoad`.
func play(
    _ scenario: Scenario, seed: UInt64 = 1, movies: [Movie]? = nil, log: Log,
    onLoad: @escaping (ScriptApp) -> Void
) throws -> RunResult {
    try play(scenario, seed: seed, movies: movies) {
        let app = ScriptApp(log: log)
        app.onLoad = onLoad
        return app
    }
}

/// A small app: a table of the phone's movies with plain cells, recording every UIKit-like callback in
/// the log, with hooks a test fills in.
class ScriptApp: TableViewController, @unchecked Sendable {
    let log: Log
    /// Runs at the end of `viewDidLoad`.
    var onLoad: (ScriptApp) -> Void = { _ in }
    /// Runs at each `scrollViewDidScroll`, after it is logged.
    var onScroll: (ScriptApp) -> Void = { _ in }
    /// Runs for each cell handed out, after it is configured.
    var onCell: (ScriptApp, TableViewCell, IndexPath) -> Void = { _, _, _ in }

    init(log: Log) {
        self.log = log
        super.init()
    }

    override func viewDidLoad() {
        super.viewDidLoad()
        tableView.reloadData()
        onLoad(self)
    }

    override func tableView(_ tableView: TableView, numberOfRowsInSection section: Int) -> Int {
        phone.movies.count
    }

    override func tableView(_ tableView: TableView, cellForRowAt indexPath: IndexPath) -> TableViewCell {
        let cell = tableView.dequeueReusableCell(withIdentifier: "Cell", for: indexPath)
        cell.textLabel.text = phone.movies[indexPath.row].name
        log.note("cellForRow", Double(indexPath.row))
        onCell(self, cell, indexPath)
        return cell
    }

    override func tableView(
        _ tableView: TableView, didEndDisplaying cell: TableViewCell, forRowAt indexPath: IndexPath
    ) {
        log.note("didEndDisplaying", Double(indexPath.row))
    }

    override func scrollViewWillBeginDragging(_ scrollView: TableView) {
        log.note("willBeginDragging", scrollView.contentOffset)
    }

    override func scrollViewDidScroll(_ scrollView: TableView) {
        log.note(scrollView.isDecelerating ? "didScroll decelerating" : "didScroll", scrollView.contentOffset)
        onScroll(self)
    }

    override func scrollViewDidEndDragging(_ scrollView: TableView, willDecelerate decelerate: Bool) {
        log.note("didEndDragging", decelerate ? 1 : 0)
    }

    override func scrollViewDidEndDecelerating(_ scrollView: TableView) {
        log.note("didEndDecelerating", scrollView.contentOffset)
    }
}

/// An operation that blocks its thread for a virtual duration, logging its start and end and how many
/// such operations run at once.
final class SleepOperation: Operation, @unchecked Sendable {
    let log: Log
    let label: String
    let duration: Int64

    init(log: Log, label: String, duration: Int64) {
        self.log = log
        self.label = label
        self.duration = duration
    }

    override func main() {
        log.running += 1
        log.mostRunning = max(log.mostRunning, log.running)
        log.note("start \(label)")
        SimulatedThread.current!.sleep(for: duration)
        log.note("end \(label)")
        log.running -= 1
    }
}
