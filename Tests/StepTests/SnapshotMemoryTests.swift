import Foundation
import Shared
import Synchronization
import TestSupport
import Testing

/// `--screens` and `--export` keep the screen at every stop until the run ends: a snapshot must hold the
/// pictures the cells showed, not a copy of their pixels per stop, or a long run of stops takes gigabytes.
extension LessonTests {
    /// Ten stops on a tall screen of 45 rows each: copying every shown poster's pixels at every stop
    /// (about 190 KB a poster) added 54 MB to `--screens` and 70 MB to `--export`.
    static let denseStops =
        "rows 400\nscreen height=2000 row=44 refresh=60\n"
        + "network rtt=20ms jitter=0ms bandwidth=50MB/s connections=6\n"
        + (0..<10).map { "drag to row \(($0 * 47) % 350) over 100ms\nwait 1s\n" }.joined()

    /// The most a run that keeps its stops may take beyond the same run without them.
    static let allowedExtraBytes = 30 << 20

    /// The peak memory of step 3 on the scenario with each set of extra options. The runs go side by
    /// side, each in its own process (its peak is its own): one after another they made the longest
    /// stretch of a whole `swift test`, the suite that ended last.
    func peaks(_ extras: [[String]], scenario: String, in folder: URL) throws -> [Int] {
        let binaries = try #require(ProcessTests.binaries)
        let step = binaries.appendingPathComponent(Step.idleOnly.rawValue)
        let outcomes = Mutex([Int: Result<ChildProcess.Outcome, any Error>]())
        DispatchQueue.concurrentPerform(iterations: extras.count) { index in
            let outcome = Result {
                try ChildProcess.run(
                    step, ["--scenario", scenario] + extras[index], environment: ["TMPDIR": folder.path])
            }
            outcomes.withLock { $0[index] = outcome }
        }
        return try extras.indices.map { index in
            let outcome = try #require(outcomes.withLock { $0[index] }).get()
            #expect(outcome.status == 0, "\(outcome.errors)")
            return outcome.peakBytes
        }
    }

    @Test(
        "Keeping every stop's screen for --screens or --export costs about nothing per stop",
        .enabled(if: ProcessTests.binaries != nil, "the step executables are not built next to the tests"))
    func stopsShareTheirPictures() throws {
        let folder = try StepFixtures.folder("snapshot-memory")
        defer { try? FileManager.default.removeItem(at: folder) }
        let scenario = try StepFixtures.scenario(Self.denseStops, named: "dense-stops", in: folder)
        let peaks = try peaks(
            [[], ["--screens"], ["--export", folder.appendingPathComponent("export").path]],
            scenario: scenario,
            in: folder)
        let (without, screens, export) = (peaks[0], peaks[1], peaks[2])
        #expect(screens < without + Self.allowedExtraBytes, "\(screens >> 20) MB against \(without >> 20) MB")
        #expect(export < without + Self.allowedExtraBytes, "\(export >> 20) MB against \(without >> 20) MB")
    }
}
