import Foundation
import Shared

/// A step as the tests see it, found from the `Sources/Step<N>…` folders rather than listed: a step a
/// teacher adds (a folder, and its name in `Package.swift`'s `steps`) is in `allCases` at once, and its
/// code is reached through its `StepInfo`, looked up by module name.
struct Step: Hashable, Sendable, CustomStringConvertible, Comparable {
    /// The step's executable and folder name, such as `Step2Background`.
    let rawValue: String
    /// The number after `Step` in the name: the step's place in the course.
    let number: Int

    /// The step of that name, if there is a folder for it.
    init?(rawValue: String) {
        guard let found = Self.allCases.first(where: { $0.rawValue == rawValue }) else { return nil }
        self = found
    }

    private init(folder: String, number: Int) {
        rawValue = folder
        self.number = number
    }

    var description: String { rawValue }

    static func < (left: Step, right: Step) -> Bool {
        (left.number, left.rawValue) < (right.number, right.rawValue)
    }

    /// The number in a folder name `Step<N>…`, or nil for any other name.
    static func number(inFolderName name: String) -> Int? {
        guard name.hasPrefix("Step") else { return nil }
        let digits = name.dropFirst(4).prefix { $0.isASCII && $0.isNumber }
        return digits.isEmpty ? nil : Int(digits)
    }

    /// The package's `Sources` folder, found from this file.
    static let sourcesFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Sources")

    /// Every step folder, in course order.
    static let allCases: [Step] = {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: sourcesFolder.path)) ?? []
        return names.compactMap { name in number(inFolderName: name).map { Step(folder: name, number: $0) } }
            .sorted()
    }()

    /// The steps the course's own tests talk about by name.
    static let naive = known("Step1Naive")
    static let background = known("Step2Background")
    static let idleOnly = known("Step3IdleOnly")
    static let cacheAndPrefetch = known("Step4CacheAndPrefetch")
    static let concurrency = known("Step5Concurrency")
    static let imagePipeline = known("Step6ImagePipeline")

    private static func known(_ name: String) -> Step {
        guard let step = Step(rawValue: name) else { fatalError("no Sources/\(name) folder") }
        return step
    }

    /// The step's `StepInfo`, looked up by its mangled name (`<length>Module8StepInfoO`, an enum).
    var info: any WorkbookStep.Type {
        let mangled = "\(rawValue.utf8.count)\(rawValue)8StepInfoO"
        guard let type = _typeByName(mangled) as? any WorkbookStep.Type else {
            fatalError(
                "\(rawValue).StepInfo is not linked into the tests, or does not conform to WorkbookStep: "
                    + "add \"\(rawValue)\" to `steps` in Package.swift and keep `enum StepInfo: WorkbookStep`"
            )
        }
        return type
    }

    /// Makes the step's app, as its `main.swift` does.
    func makeApp(_ options: RunOptions) -> TableViewController {
        info.makeApp(options)
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

    /// The final screen's image hashes, row by row.
    var finalHashes: [String] {
        finalScreen.rows.map { "\($0.row):\($0.shows):\($0.imageHash ?? "-")" }
    }
}

/// The built-in scenarios, by what they exercise.
enum Scenarios {
    static let all = ["course", "long-fling", "reading", "flaky", "relaunch", "slow-reuse", "mix-up"]
    /// Scenarios with flings, where step 3's idle-only loading pays.
    static let flings = ["course", "long-fling"]
    /// Scenarios without transient faults, where every step must end on the same pictures.
    static let faultless = ["course", "long-fling", "reading", "relaunch", "slow-reuse", "mix-up"]
}
