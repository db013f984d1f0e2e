import Foundation
import Shared
import Step1Naive
import Step2Background
import Step3IdleOnly
import Step4CacheAndPrefetch
import Step5Concurrency

@testable import Step1Naive
@testable import Step2Background
@testable import Step3IdleOnly
@testable import Step4CacheAndPrefetch
@testable import Step5Concurrency

/// The steps as the tests see them.
enum Step: String, CaseIterable, Sendable, CustomStringConvertible {
    case naive = "Step1Naive"
    case background = "Step2Background"
    case idleOnly = "Step3IdleOnly"
    case cacheAndPrefetch = "Step4CacheAndPrefetch"
    case concurrency = "Step5Concurrency"

    var description: String { rawValue }

    /// Makes the step's app, as its `main.swift` does.
    func makeApp(_ options: RunOptions) -> TableViewController {
        switch self {
        case .naive: return Step1Naive.StepInfo.makeApp(options)
        case .background: return Step2Background.StepInfo.makeApp(options)
        case .idleOnly: return Step3IdleOnly.StepInfo.makeApp(options)
        case .cacheAndPrefetch: return Step4CacheAndPrefetch.StepInfo.makeApp(options)
        case .concurrency: return Step5Concurrency.StepInfo.makeApp(options)
        }
    }

    /// Plays the step on a scenario, with the trace kept.
    func run(_ scenario: String, cacheDirectory: String? = nil, seed: UInt64? = nil) throws -> RunResult {
        var options = RunOptions()
        options.scenario = scenario
        options.cacheDirectory = cacheDirectory
        options.seed = seed
        options.tracePath = nil
        return try Workbook.run(step: rawValue, options: options, keepTrace: true, makeApp: makeApp)
    }
}

/// Runs each (step, scenario) once per test process and shares the result: runs are deterministic, so
/// every test that needs one sees the same run.
final class SharedRuns: @unchecked Sendable {
    static let shared = SharedRuns()
    private let lock = NSLock()
    private var results: [String: RunResult] = [:]
    private var keyLocks: [String: NSLock] = [:]

    func result(_ step: Step, _ scenario: String) throws -> RunResult {
        let key = "\(step.rawValue)/\(scenario)"
        let keyLock = lock.withLock {
            if let existing = keyLocks[key] { return existing }
            let made = NSLock()
            keyLocks[key] = made
            return made
        }
        return try keyLock.withLock {
            if let cached = lock.withLock({ results[key] }) { return cached }
            let result = try step.run(scenario)
            lock.withLock { results[key] = result }
            return result
        }
    }
}

extension RunResult {
    /// A metric by its contract key, as a number (ms for times).
    func metric(_ key: String) -> Double {
        metrics.entries.first { $0.key == key }?.value.number ?? .nan
    }

    /// The trace events with a given name.
    func events(_ name: String) -> [TraceEvent] {
        trace.filter { $0.name == name }
    }

    /// The final screen's image hashes, row by row.
    var finalHashes: [String] {
        finalScreen.rows.map { "\($0.row):\($0.shows):\($0.imageHash ?? "-")" }
    }
}

extension TraceEvent {
    /// A field's raw JSON value.
    func field(_ key: String) -> String? {
        fields.first { $0.key == key }?.json
    }
}

/// The built-in scenarios, by what they exercise.
enum Scenarios {
    static let all = ["course", "long-fling", "reading", "flaky", "relaunch", "slow-reuse"]
    /// Scenarios with flings, where step 3's idle-only loading pays.
    static let flings = ["course", "long-fling"]
    /// Scenarios without transient faults, where every step must end on the same pictures.
    static let faultless = ["course", "long-fling", "reading", "relaunch", "slow-reuse"]
}
