import Foundation
import TestSupport
import Testing

@testable import Course

/// What a check's children may do: each runs in a process group of its own, under a wall time, processor
/// time and memory limit, outside the checkout, and nothing of its group outlives it. Stand-ins written
/// in `sh` play the student's code: they note their process group and start a lingering `sleep`, so each
/// test asserts by process id that nothing is left, not by how long anything took.
@Suite("Course's children confined: time, memory, process group, folder; progress kept under a lock")
struct CourseConfinementTests {
    /// Whether a process still runs: signal 0 reaches it and it is not a zombie waiting for its parent.
    static func isRunning(_ id: pid_t) -> Bool {
        guard kill(id, 0) == 0 else { return false }
        #if canImport(Darwin)
            return true
        #else
            guard let stat = try? String(contentsOfFile: "/proc/\(id)/stat", encoding: .utf8),
                let end = stat.lastIndex(of: ")")
            else { return false }
            return !stat[stat.index(after: end)...].hasPrefix(" Z")
        #endif
    }

    /// Whether `ended` holds within ten seconds: a process sent `SIGKILL` takes a moment to die, and a
    /// process that was never sent one never does.
    static func gone(_ ended: () -> Bool) -> Bool {
        for _ in 0..<1000 {
            if ended() { return true }
            usleep(10_000)
        }
        return false
    }

    /// Whether any process of a group still runs (a zombie counts as gone).
    static func groupRuns(_ group: pid_t) -> Bool {
        #if canImport(Darwin)
            return kill(-group, 0) == 0
        #else
            let ids =
                (try? FileManager.default.contentsOfDirectory(atPath: "/proc"))?.compactMap { pid_t($0) }
                ?? []
            return ids.contains { id in
                getpgid(id) == group && isRunning(id)
            }
        #endif
    }

    /// A stand-in step: notes its process group (its own id: it leads the group) and a background `sleep`'s
    /// id beside it, then runs `body`.
    static func standIn(_ body: String, in folder: URL) throws -> URL {
        let bin = folder.appendingPathComponent("bin", isDirectory: true)
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        let script = bin.appendingPathComponent("Step9StandIn")
        let text = """
            #!/bin/sh
            echo $$ > "$(dirname "$0")/group.pid"
            sleep 300 &
            echo $! > "$(dirname "$0")/sleep.pid"
            \(body)

            """
        try StepFixtures.executableScript(text, at: script)
        return bin
    }

    static func noted(_ name: String, in bin: URL) throws -> pid_t {
        let text = try String(contentsOf: bin.appendingPathComponent(name), encoding: .utf8)
        return try #require(pid_t(text.trimmingCharacters(in: .whitespacesAndNewlines)))
    }

    /// Runs a stand-in as `Course check` runs a student's step, with `limits`; what it threw.
    static func run(_ body: String, limits: Limits, in folder: URL) throws -> (
        error: String?, group: pid_t, sleeper: pid_t
    ) {
        let bin = try standIn(body, in: folder)
        let scratch = folder.appendingPathComponent("scratch", isDirectory: true)
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        let package = WorkbookPackage(folder: folder)
        var thrown: String?
        do {
            _ = try package.run(
                "Step9StandIn", scenario: "course", options: [], traced: false, limits: limits, bin: bin,
                scratch: scratch)
        } catch {
            thrown = "\(error)"
        }
        return (thrown, try noted("group.pid", in: bin), try noted("sleep.pid", in: bin))
    }

    static let report = #"printf '{\n  "step": "x", "metrics": {}, "final_screen": []}\n'"#

    enum Runaway: String, CaseIterable {
        case spins, spinsOnTheProcessor, allocates, exitsLeavingAChild
    }

    @Test(
        "A step that spins, burns processor time, allocates without end or leaves a child behind is stopped within its limits, and nothing of its process group is left",
        arguments: Runaway.allCases)
    func aRunawayStepIsStoppedAndLeavesNothing(_ runaway: Runaway) throws {
        let folder = try StepFixtures.folder("confined")
        defer { try? FileManager.default.removeItem(at: folder) }
        let body: String
        var limits = Limits(seconds: 600, processorSeconds: 600, memoryBytes: 256 << 20)
        switch runaway {
        case .spins:
            // Sleeps, so only the wall limit can end it.
            body = "while :; do sleep 1; done"
            limits.seconds = 2
        case .spinsOnTheProcessor:
            body = "while :; do :; done"
            limits.processorSeconds = 1
            // Only a backstop: the processor limit must end it first.
            limits.seconds = 30
        case .allocates:
            // A gigabyte held in the shell's memory, four times the limit.
            body = "x=$(head -c 1000000000 /dev/zero | tr '\\0' a)\necho ${#x}\n" + Self.report
        case .exitsLeavingAChild:
            body = Self.report
        }
        let outcome = try Self.run(body, limits: limits, in: folder)
        defer {
            kill(-outcome.group, SIGKILL)
            kill(outcome.sleeper, SIGKILL)
        }
        switch runaway {
        case .spins:
            #expect(
                outcome.error?.contains("did not finish course within 2 s: stopped") == true, "\(outcome)")
        case .spinsOnTheProcessor:
            #expect(outcome.error?.contains("more than 1 s of processor time") == true, "\(outcome)")
        case .allocates:
            // The shell cannot hold the gigabyte: it fails or crashes before printing a report.
            #expect(outcome.error?.hasPrefix("Step9StandIn") == true, "\(outcome)")
            #expect(outcome.error?.contains("ed on course") == true, "\(outcome)")
        case .exitsLeavingAChild:
            #expect(outcome.error == nil, "\(outcome)")
        }
        #expect(Self.gone { !Self.isRunning(outcome.sleeper) }, "the background sleep outlived the step")
        #expect(Self.gone { !Self.groupRuns(outcome.group) }, "a process of the step's group is left")
    }

    @Test("A step runs in the scratch folder: what it writes lands there, not in the package")
    func aStepWritesOutsideThePackage() throws {
        let folder = try StepFixtures.folder("confined-folder")
        defer { try? FileManager.default.removeItem(at: folder) }
        let outcome = try Self.run(
            "echo written > Written.txt\n" + Self.report, limits: .step, in: folder)
        #expect(outcome.error == nil)
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("Written.txt").path))
        #expect(
            FileManager.default.fileExists(atPath: folder.appendingPathComponent("scratch/Written.txt").path))
    }

    @Test("A command a check runs (the tests) that spins is stopped at its limit, its whole group with it")
    func aCommandThatSpinsIsStopped() throws {
        let folder = try StepFixtures.folder("confined-command")
        defer { try? FileManager.default.removeItem(at: folder) }
        let bin = try Self.standIn("while :; do sleep 1; done", in: folder)
        let package = WorkbookPackage(folder: folder)
        let outcome = package.execute(
            bin.appendingPathComponent("Step9StandIn").path, [],
            limits: Limits(seconds: 2, processorSeconds: 60, memoryBytes: 256 << 20))
        let group = try Self.noted("group.pid", in: bin)
        let sleeper = try Self.noted("sleep.pid", in: bin)
        defer {
            kill(-group, SIGKILL)
            kill(sleeper, SIGKILL)
        }
        #expect(outcome.status == 124)
        #expect(outcome.output.contains("did not finish within 2 s"))
        #expect(Self.gone { !Self.isRunning(sleeper) })
        #expect(Self.gone { !Self.groupRuns(group) })
    }

    @Test("Two checks saving progress at once keep both marks")
    func twoSavesKeepBothMarks() throws {
        let folder = try StepFixtures.folder("progress")
        defer { try? FileManager.default.removeItem(at: folder) }
        // Read before either writes, as two checks started together read it.
        var first = Progress(package: folder)
        var second = Progress(package: folder)
        first.set("2.4", .done)
        second.set("3.4", .done)
        second.countHint("3.4")
        try first.save()
        try second.save()
        let read = Progress(package: folder)
        #expect(read.state("2.4") == .done)
        #expect(read.state("3.4") == .done)
        #expect(read.hints("3.4") == 1)
    }

    @Test("Many saves at once from threads keep every mark")
    func concurrentSavesKeepEveryMark() async throws {
        let folder = try StepFixtures.folder("progress-threads")
        defer { try? FileManager.default.removeItem(at: folder) }
        let ids = (1...24).map { "9.\($0)" }
        await withTaskGroup(of: Void.self) { group in
            for id in ids {
                group.addTask {
                    var progress = Progress(package: folder)
                    progress.set(id, .done)
                    try? progress.save()
                }
            }
        }
        let read = Progress(package: folder)
        #expect(ids.filter { read.state($0) != .done } == [])
    }
}
