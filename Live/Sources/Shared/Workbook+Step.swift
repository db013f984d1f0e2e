extension Workbook {
    /// Runs the step `StepInfo` describes live, as `main(step:summary:techniques:makeApp:)` does.
    public static func main(_ step: any WorkbookStep.Type) -> Never {
        main(step: step.name, summary: step.summary, techniques: step.techniques, makeApp: step.makeApp)
    }
}
