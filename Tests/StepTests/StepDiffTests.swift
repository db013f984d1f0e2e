import Foundation
import Testing

extension WalkthroughTests {
    @Test("The walkthrough's diff counts are the lines diff -ruN --minimal prints, for every pair of steps")
    func stepDiffCountsWhatDiffPrints() throws {
        let diff = URL(fileURLWithPath: "/usr/bin/diff")
        try #require(
            FileManager.default.isExecutableFile(atPath: diff.path),
            "no /usr/bin/diff to check the count against")
        let root = WalkthroughBlocks.documentFolder
        let steps = [
            "Step1Naive", "Step2Background", "Step3IdleOnly", "Step4CacheAndPrefetch", "Step5Concurrency",
            "Step6ImagePipeline",
        ]
        for (earlier, later) in zip(steps, steps.dropFirst()) {
            let outcome = try ChildProcess.run(
                diff,
                [
                    "-ruN", "--minimal", root.appendingPathComponent("Sources/\(earlier)").path,
                    root.appendingPathComponent("Sources/\(later)").path,
                ])
            let printed = outcome.output.components(separatedBy: "\n").filter { line in
                (line.hasPrefix("+") || line.hasPrefix("-")) && !line.hasPrefix("+++ ")
                    && !line.hasPrefix("--- ")
            }
            let counted = try StepDiff.counts(
                from: root.appendingPathComponent("Sources/\(earlier)"),
                to: root.appendingPathComponent("Sources/\(later)"))
            #expect(
                counted.reduce(0) { $0 + $1.removed + $1.added } == printed.count, "\(earlier) → \(later)")
        }
    }
}
