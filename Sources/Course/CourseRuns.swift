import Foundation

/// The runs a check plays: building the steps, the scenario files, and each run (twice at once for the
/// student's code).
extension Course {
    /// Builds the steps an exercise plays and runs them; with `only`, just the runs of that step.
    func runAll(_ exercise: Exercise, only: RunSpec.StepChoice? = nil) throws -> [String: RunReport] {
        let specs = exercise.runs.filter { only == nil || $0.step == only }
        if specs.isEmpty { return [:] }
        var built: Set<String> = []
        for spec in specs {
            guard let step = package.stepName(for: spec, of: exercise) else {
                throw CourseError("exercise \(exercise.id) needs a step before step \(exercise.step)")
            }
            if built.insert(step).inserted {
                say("Building \(step)…")
                if let errors = package.build(step) {
                    throw CourseError("\(step) does not build:\n\(errors)")
                }
            }
        }
        let bin = package.binFolder()
        let scratch = try makeScratchFolder("course-run")
        defer { try? FileManager.default.removeItem(at: scratch) }
        let cache = scratch.appendingPathComponent("cache").path
        // The twin run of the student's code has a cache folder of its own, which the same runs fill alike.
        let twinCache = scratch.appendingPathComponent("cache-twin").path
        var reports: [String: RunReport] = [:]
        for spec in specs {
            let step = package.stepName(for: spec, of: exercise)!
            let scenario = try scenarioPath(
                spec.scenario, scratch: scratch,
                studentWrites: exercise.studentFiles.contains { $0 == spec.scenario.file })
            let options = spec.options.map { $0 == "{cache}" ? cache : $0 }
            say(
                "Running \(step) --scenario \(scenario.shown) \(options.joined(separator: " "))"
                    + (spec.step == .this ? " (twice at once: the two must print the same)" : ""))
            reports[spec.label] = try package.run(
                step, scenario: scenario.path, options: options, traced: spec.traced,
                limits: spec.step == .this ? .step : .untouchedStep, bin: bin, scratch: scratch,
                twin: spec.step == .this ? spec.options.map { $0 == "{cache}" ? twinCache : $0 } : nil)
        }
        return reports
    }

    /// The scenario to pass: a built-in's name, the student's file, or one made from the recipe. A file
    /// the exercise asks the student to write (`studentWrites`) must be there: it is the work judged.
    func scenarioPath(_ choice: ScenarioChoice, scratch: URL, studentWrites: Bool = false) throws -> (
        path: String, shown: String
    ) {
        switch choice {
        case .builtIn(let name):
            return (name, name)
        case .file(let path, let recipe):
            let students = package.folder.appendingPathComponent(path)
            if FileManager.default.fileExists(atPath: students.path) { return (students.path, path) }
            if studentWrites {
                throw CourseError(
                    "\(path) is not there yet: the exercise asks you to write it")
            }
            let made = scratch.appendingPathComponent(students.lastPathComponent)
            try Self.text(of: recipe, package: package.folder).write(
                to: made, atomically: true, encoding: .utf8)
            return (made.path, "\(path) (not written: made as the walkthrough says)")
        }
    }

    /// A recipe's scenario text.
    static func text(of recipe: ScenarioRecipe, package: URL) throws -> String {
        switch recipe {
        case .text(let text):
            return text
        case .builtIn(let name, let replacements):
            let file = package.appendingPathComponent(
                "Sources/Scenarios/Resources/Scenarios/\(name).scenario")
            let lines = try String(contentsOf: file, encoding: .utf8).components(separatedBy: "\n")
            return lines.map { line in replacements.first { line.hasPrefix($0.0) }?.1 ?? line }
                .joined(separator: "\n")
        }
    }
}
