import Foundation
import Shared
import Synchronization
import TestSupport
import Testing

@testable import Pictures

/// `--screens` and `--export` keep the screen at every stop until the run ends: a snapshot must hold the
/// pictures the cells showed, not a copy of their pixels per stop, or a long run of stops takes gigabytes;
/// and an export must make a picture's pixels only as it writes that picture.
extension LessonTests {
    /// Ten stops on a tall screen of 45 rows each, 450 posters in all, more than the process's memo of
    /// picture work keeps (`PosterMemo.defaultByteBudget`): a snapshot that copied each shown poster's
    /// pixels (about 190 KB a poster) would keep alive what the memo let go.
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
        "Keeping every stop's screen for --screens costs about nothing per stop",
        .enabled(if: ProcessTests.binaries != nil, "the step executables are not built next to the tests"))
    func stopsShareTheirPictures() throws {
        let folder = try StepFixtures.folder("snapshot-memory")
        defer { try? FileManager.default.removeItem(at: folder) }
        let scenario = try StepFixtures.scenario(Self.denseStops, named: "dense-stops", in: folder)
        let peaks = try peaks([[], ["--screens"]], scenario: scenario, in: folder)
        let (without, screens) = (peaks[0], peaks[1])
        #expect(screens < without + Self.allowedExtraBytes, "\(screens >> 20) MB against \(without >> 20) MB")
    }

    /// `--export` keeps the same snapshots as `--screens`, and makes each picture's pixels only when it
    /// writes that picture's file: listing the files makes none, and each poster's file makes its one.
    @Test("An export makes a poster's pixels only when it writes that poster's file")
    func exportMakesPixelsWhenWriting() throws {
        let base = try SharedRuns.shared.result(.cacheAndPrefetch, "course")
        let made = Mutex(0)
        func row(_ number: Int) -> ScreenRow {
            ScreenRow(
                row: number, title: "Row \(number)", shows: "image", imageHash: "hash-\(number)",
                url: "https://img1.posters.test/\(number).png", spinning: false,
                pixels: {
                    made.withLock { $0 += 1 }
                    return Bitmap(width: 18, height: 27, filledWith: RGBA(red: 200, green: 120, blue: 40))
                })
        }
        var stops: [ScreenSnapshot] = []
        for stop in 0..<6 {
            let time = Int64(stop + 1) * 1_000_000
            let rows = (stop * 3..<stop * 3 + 4).map(row)
            let stopped = time - 200_000
            stops.append(ScreenSnapshot(label: "stop \(stop)", time: time, rows: rows, stoppedAt: stopped))
        }
        let end = ScreenSnapshot(label: "end", time: 7_000_000, rows: (15..<19).map(row))
        let result = RunResult(
            step: base.step, scenario: base.scenario, seed: base.seed, virtualMicroseconds: 7_000_000,
            metrics: base.metrics, oracle: base.oracle, limit: base.limit, finalScreen: end, stops: stops,
            trace: [])
        let pictures = PictureExport.pictures(for: result)
        #expect(made.withLock { $0 } == 0, "listing the files made pixels")
        let posters = pictures.filter { $0.name.hasPrefix("poster-row-") }
        #expect(posters.count == 19)
        for picture in posters {
            let before = made.withLock { $0 }
            #expect(!picture.encode().isEmpty)
            #expect(made.withLock { $0 } == before + 1, "\(picture.name)")
        }
    }
}
