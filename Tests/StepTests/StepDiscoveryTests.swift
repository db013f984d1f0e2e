import Foundation
import Shared
import Testing

/// The tests find the steps from the `Sources/Step<N>…` folders: a step a teacher adds is run by every
/// test that runs all steps, with no test code of its own.
extension StepPartsTests {
    @Test("Every step folder is linked into the tests and its StepInfo names the folder")
    func everyStepFolderLinked() {
        #expect(Step.allCases.count >= 4)
        #expect(Step.allCases.map(\.number) == Step.allCases.map(\.number).sorted())
        for step in Step.allCases {
            #expect(step.info.name == step.rawValue, "change StepInfo.name in Sources/\(step.rawValue)")
        }
    }

    @Test("Package.swift lists every step folder, in course order")
    func packageListsEveryStep() throws {
        let manifest = try String(
            contentsOf: Step.sourcesFolder.deletingLastPathComponent().appendingPathComponent(
                "Package.swift"),
            encoding: .utf8)
        let start = try #require(manifest.range(of: "let steps = ["))
        let end = try #require(manifest[start.upperBound...].firstIndex(of: "]"))
        let listed = manifest[start.upperBound..<end].split(
            separator: "\"", omittingEmptySubsequences: false
        )
        .enumerated()
        .filter { $0.offset % 2 == 1 }.map { String($0.element) }
        #expect(listed == Step.allCases.map(\.rawValue))
    }

}
