import Foundation
import Shared
import TestSupport
import Testing

@testable import CLI
@testable import Imaging
@testable import Report

/// The built-in `flaky` scenario's faults, and how each step meets them.
extension LessonTests {
    @Test("On flaky only rows whose poster failed show the failure image, in every step")
    func flakyShowsFailureOnlyWhereFailed() throws {
        for step in Step.allCases {
            let run = try SharedRuns.shared.result(step, "flaky")
            let context = Comment(rawValue: "\(step)")
            #expect(run.metric("wrong_image_events") == 0, context)
            #expect(run.finalScreen.rows.contains { $0.shows == "image" }, context)
            #expect(run.finalScreen.rows.allSatisfy { $0.shows != "placeholder" }, context)
            let failedRequests = Set(
                run.events("request_end").filter { $0.number("status") != 200 }.compactMap {
                    $0.text("url")
                })
            let failedDecodes = Set(
                run.events("decode").filter { $0.flag("ok") == false }.compactMap { $0.text("url") })
            for row in run.finalScreen.rows where row.shows == "failed" {
                let cause =
                    failedRequests.contains(row.url) || failedDecodes.contains(row.url)
                    || URL(string: row.url)?.host == nil
                #expect(
                    cause,
                    "\(step): row \(row.row) (\(row.url)) shows the failure image with no failure traced")
            }
        }
    }

    @Test("The flaky run meets every kind of fault")
    func flakyMeetsEveryFault() throws {
        let run = try SharedRuns.shared.result(.cacheAndPrefetch, "flaky")
        let statuses = Set(run.events("request_end").compactMap { $0.number("status") })
        // 0: timeout, refusal or dropped body; 404: a removed poster; 500: a server error.
        #expect(statuses.isSuperset(of: [0, 200, 404, 500]), "\(statuses.sorted())")
        #expect(
            run.events("decode").contains { $0.flag("ok") == false }, "a corrupt body fails to decode")
    }

    @Test("Step 4 retries transient failures at most twice and never a 404 or an invalid URL")
    func stepFourRetriesTransientOnly() throws {
        let run = try SharedRuns.shared.result(.cacheAndPrefetch, "flaky")
        #expect(run.metric("retries") > 0)
        // Replay the trace per URL: what its previous request did, and how many failures in a row.
        var previousFailed: [String: Bool] = [:]
        var failuresInARow: [String: Int] = [:]
        var finalFailure: Set<String> = []
        var retries = 0
        for event in run.trace {
            guard let url = event.text("url") else { continue }
            switch event.name {
            case "request_start":
                #expect(
                    !finalFailure.contains(url),
                    "\(url) was asked for again after a 404 or an invalid URL")
                if previousFailed[url] == true { retries += 1 }
            case "request_end":
                let status = event.number("status")
                previousFailed[url] = status != 200
                failuresInARow[url] = status == 200 ? 0 : failuresInARow[url, default: 0] + 1
                #expect(
                    failuresInARow[url, default: 0] <= 3, "\(url) failed more than three times in a row")
                if status == 404 || url.contains("NO URL") || !url.hasPrefix("http") {
                    finalFailure.insert(url)
                }
            case "request_cancel":
                previousFailed[url] = false
            default:
                break
            }
        }
        // The metric means what it says: requests whose previous request for the URL failed.
        #expect(Double(retries) == run.metric("retries"))
        #expect(run.events("request_end").contains { $0.number("status") == 404 })
    }

    @Test("A retried row that succeeds shows its poster, not the failure image")
    func retriedRowShowsPoster() throws {
        let run = try SharedRuns.shared.result(.cacheAndPrefetch, "flaky")
        let recovered = run.trace.indices.filter { index in
            let event = run.trace[index]
            guard event.name == "request_end", event.number("status") == 200, let url = event.text("url")
            else {
                return false
            }
            return run.trace[..<index].last { $0.name == "request_end" && $0.text("url") == url }?
                .number("status") == 0
        }
        #expect(!recovered.isEmpty, "some transient failure was retried into a success")
    }

    @Test(
        "A corrupt PNG in the --posters folder fails only the rows it is served for")
    func corruptServedPoster() throws {
        for step in Step.allCases {
            let folder = try StepFixtures.folder("posters")
            defer { try? FileManager.default.removeItem(at: folder) }
            for index in 0..<3 {
                let bitmap = Bitmap(
                    width: 40, height: 60, filledWith: RGBA(red: UInt8(60 * index), green: 90, blue: 200))
                try Data(PNGEncoder.encode(bitmap)).write(
                    to: folder.appendingPathComponent("good-\(index).png"))
            }
            try Data([0x89, 0x50, 0x4E, 0x47, 1, 2, 3]).write(to: folder.appendingPathComponent("bad.png"))
            let scenario = try StepFixtures.scenario("rows 20\nwait 4s\n", named: "posters", in: folder)
            var options = RunOptions()
            options.scenario = scenario
            options.postersDirectory = folder.path
            let run = try Workbook.run(
                step: step.rawValue, options: options, keepTrace: true, makeApp: step.makeApp)
            let rows = run.finalScreen.rows
            #expect(rows.contains { $0.shows == "failed" && URL(string: $0.url)?.host != nil }, "\(step)")
            #expect(rows.contains { $0.shows == "image" }, "\(step)")
            #expect(rows.allSatisfy { $0.shows != "placeholder" }, "\(step)")
            #expect(run.metric("wrong_image_events") == 0, "\(step)")
        }
    }
}
