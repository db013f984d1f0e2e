import Foundation
import Shared
import TestSupport
import Testing

/// `Compare --live` on fixture reports: a copy of the built `Compare` beside shell scripts named like the
/// six steps that print a simulated `--json` report (and write a trace where asked), and a second folder,
/// given with `--live-bin`, of scripts that print live ones. No step runs, simulated or live.
@Suite("Compare --live on fixture reports")
struct CompareLiveTests {
    /// The figures one fixture report gives; the rest of the metrics are left out.
    struct Figures {
        var hangs = 0
        var bytes = 1000
        var wrong: Int? = 0
        /// Posters downloaded after the last relaunch (live: in the live object; simulated: in the trace).
        var afterRelaunch = 0
    }

    static let names = [
        "Step1Naive", "Step2Background", "Step3IdleOnly", "Step4CacheAndPrefetch", "Step5Concurrency",
        "Step6ImagePipeline",
    ]

    /// A step's `--json` report; a live one has null where a figure is not measured and a `live` object.
    static func report(_ step: String, _ figures: Figures, live: Bool) -> String {
        let wrong = figures.wrong.map(String.init) ?? "null"
        let metrics =
            #""hangs": \#(figures.hangs), "bytes_downloaded": \#(figures.bytes), "wrong_image_events": \#(wrong), "#
            + #""operations_cancelled": \#(live ? "null" : "3")"#
        let liveObject =
            live
            ? #", "live": {"wall_seconds": 12.5, "frames": 700, "server_requests_logged": 9, "relaunches": 1, "#
                + #""posters_downloaded_after_last_relaunch": \#(figures.afterRelaunch)}"#
            : ""
        return
            #"{"step": "\#(step)", "scenario": "relaunch", "seed": 19\#(liveObject), "metrics": {\#(metrics)}, "#
            + #""final_screen": []}"#
    }

    /// A simulated step's script: the trace holds one relaunch and then `afterRelaunch` posters downloaded,
    /// each after a failed request that does not count.
    static func simulatedScript(_ step: String, _ figures: Figures) -> String {
        let starts = String(
            repeating: #"{"t_us": 2, "event": "request_end", "url": "u", "status": 404, "bytes": 9}\n"#
                + #"{"t_us": 3, "event": "request_end", "url": "u", "status": 200, "bytes": 9}\n"#,
            count: figures.afterRelaunch)
        let trace =
            #"{"t_us": 0, "event": "request_end", "url": "u", "status": 200, "bytes": 9}\n"#
            + #"{"t_us": 1, "event": "relaunch"}\n"# + starts
        return """
            while [ $# -gt 0 ]; do
              if [ "$1" = --trace ]; then shift; printf '\(trace)' > "$1"; fi
              shift
            done
            echo '\(report(step, figures, live: false))'
            """
    }

    /// The figures under which every lesson holds, simulated and live.
    static let lessonsHold: [Figures] = [
        Figures(hangs: 2, bytes: 900, afterRelaunch: 8), Figures(hangs: 0, bytes: 900, afterRelaunch: 8),
        Figures(hangs: 0, bytes: 500, afterRelaunch: 8), Figures(hangs: 0, bytes: 600, afterRelaunch: 0),
        Figures(hangs: 0, bytes: 600, afterRelaunch: 0), Figures(hangs: 0, bytes: 600, afterRelaunch: 0),
    ]

    /// Writes the two folders and runs `Compare --live` on the `relaunch` scenario (it has flings and
    /// relaunches); `live` defaults to the simulated figures.
    static func compare(
        simulated: [Figures], live: [Figures]? = nil, liveSteps: [String] = names, extra: [String] = []
    ) throws -> ChildProcess.Outcome {
        let folder = try ProcessTests.folder(
            steps: zip(names, simulated).map { ($0, simulatedScript($0, $1)) })
        defer { try? FileManager.default.removeItem(at: folder) }
        let liveFolder = try ProcessTests.folder(
            steps: zip(names, live ?? simulated).filter { liveSteps.contains($0.0) }.map {
                ($0, "echo '\(report($0, $1, live: true))'")
            })
        defer { try? FileManager.default.removeItem(at: liveFolder) }
        return try ChildProcess.run(
            folder.appendingPathComponent("Compare"),
            ["--live", "--scenario", "relaunch", "--live-bin", liveFolder.path] + extra, deadline: 60)
    }

    /// The cells of the table's line for `key`.
    static func row(_ key: String, in output: String) -> [String] {
        let line = output.split(separator: "\n").first { $0.split(separator: " ").first == Substring(key) }
        return line.map { $0.split(separator: " ").dropFirst().map(String.init) } ?? []
    }

    @Test(
        "Every figure stands beside its live twin, a dash where it is not measured live, and every lesson holds",
        .enabled(if: ProcessTests.compare != nil, "Compare is not built next to the tests"))
    func lessonsHold() throws {
        let outcome = try Self.compare(simulated: Self.lessonsHold)
        #expect(outcome.status == 0, "\(outcome.errors)")
        let header = Self.row("metric", in: outcome.output)
        #expect(
            header == [
                "Step1", "sim", "live", "Step2", "sim", "live", "Step3", "sim", "live", "Step4", "sim",
                "live",
                "Step5", "sim", "live", "Step6", "sim", "live",
            ],
            "\(outcome.output)")
        #expect(
            Self.row("hangs", in: outcome.output) == [
                "2", "2", "0", "0", "0", "0", "0", "0", "0", "0", "0", "0",
            ])
        #expect(
            Self.row("operations_cancelled", in: outcome.output) == [
                "3", "-", "3", "-", "3", "-", "3", "-", "3", "-", "3", "-",
            ])
        #expect(
            Self.row("posters_after_last_relaunch", in: outcome.output)
                == ["8", "8", "8", "8", "8", "8", "0", "0", "0", "0", "0", "0"])
        #expect(Self.row("live_frames", in: outcome.output) == ["700", "700", "700", "700", "700", "700"])
        for claim in [
            "step 1 hangs and steps 2-6 do not", "step 3 moves fewer bytes than step 2 on flings",
            "step 4 needs no network after a relaunch", "no wrong picture in steps 4 to 6",
        ] {
            #expect(outcome.output.contains("  holds        \(claim)\n"), "\(outcome.output)")
        }
    }

    @Test(
        "A lesson the simulator shows that fails live is named, and Compare exits 1",
        .enabled(if: ProcessTests.compare != nil, "Compare is not built next to the tests"))
    func lessonFailsLive() throws {
        var live = Self.lessonsHold
        live[3].afterRelaunch = 4
        live[4].wrong = 2
        let outcome = try Self.compare(simulated: Self.lessonsHold, live: live)
        #expect(outcome.status == 1, "\(outcome.errors)")
        #expect(outcome.output.contains("  FAILS        step 4 needs no network after a relaunch"))
        #expect(outcome.output.contains("  FAILS        no wrong picture in steps 4 to 6"))
        #expect(outcome.output.contains("  holds        step 1 hangs and steps 2-6 do not"))
    }

    @Test(
        "A lesson the simulator does not show, or a figure not measured live, is not judged and fails nothing",
        .enabled(if: ProcessTests.compare != nil, "Compare is not built next to the tests"))
    func lessonNotJudged() throws {
        var simulated = Self.lessonsHold
        simulated[2].bytes = 950
        var live = simulated
        live[3].wrong = nil
        let outcome = try Self.compare(simulated: simulated, live: live)
        #expect(outcome.status == 0, "\(outcome.errors)")
        #expect(
            outcome.output.contains(
                "  not judged   step 3 moves fewer bytes than step 2 on flings: the simulator does not show it"
            ))
        #expect(
            outcome.output.contains(
                "  not judged   no wrong picture in steps 4 to 6: a figure it needs is not measured live"))
    }

    @Test(
        "A missing live step or a bad option is one line and exit 2",
        .enabled(if: ProcessTests.compare != nil, "Compare is not built next to the tests"))
    func badInput() throws {
        let missing = try Self.compare(
            simulated: Self.lessonsHold, liveSteps: Array(Self.names.prefix(2)) + Array(Self.names.suffix(2)))
        #expect(missing.status == 2)
        #expect(missing.errors.hasPrefix("Compare: no live Step3IdleOnly in "), "\(missing.errors)")
        #expect(missing.errors.split(separator: "\n").count == 1)
        let unknown = try Self.compare(simulated: Self.lessonsHold, extra: ["--frobnicate"])
        #expect(unknown.status == 2)
        #expect(unknown.errors.split(separator: "\n").count == 1, "\(unknown.errors)")
        let noFolder = try Self.compare(simulated: Self.lessonsHold, extra: ["--live-bin"])
        #expect(noFolder.status == 2)
        #expect(noFolder.errors == "Compare: --live-bin needs a folder\n")
    }
}
