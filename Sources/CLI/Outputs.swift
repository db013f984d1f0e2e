import Files
import Foundation
import Pictures
import Scenarios

/// The files a run writes after it ends (`--trace`, `--timeline`, `--export`), opened and checked before
/// it starts, so that a path that cannot be written, or that names an input or another output of the same
/// run, is refused before any work and never overwrites what the run reads.
struct Outputs {
    /// The `--trace` file, open.
    let trace: OutputFile?
    /// The `--timeline` file, open.
    let timeline: OutputFile?
    /// The `--export` folder, made and checked.
    let export: URL?

    /// Opens every output the options name; the first one that cannot be written is refused in one line.
    static func open(_ options: RunOptions) throws(WorkbookError) -> Outputs {
        let inputs = inputPaths(options)
        let trace = try openFile(options.tracePath, option: "--trace", inputs: inputs)
        let timeline = try openFile(options.timelinePath, option: "--timeline", inputs: inputs)
        if let trace, let timeline, !trace.isDevice,
            OutputFile.sameDestination(trace.path, timeline.path)
        {
            throw .badInput(
                "--timeline: \(VisibleText.escaped(timeline.path)) is also the --trace file; give each "
                    + "output its own path")
        }
        var export: URL?
        if let directory = options.exportDirectory {
            if let posters = options.postersDirectory, OutputFile.sameDestination(directory, posters) {
                throw .badInput(
                    "--export: \(VisibleText.escaped(directory)) is the --posters folder; the pictures "
                        + "would become posters of the next run")
            }
            export = try Workbook.writableDirectory(directory, option: "--export")
            for file in [trace, timeline].compactMap({ $0 }) where !file.isDevice {
                let folder = URL(fileURLWithPath: file.path).deletingLastPathComponent().path
                if OutputFile.sameDestination(folder, directory), PictureExport.owns(file.path) {
                    throw .badInput(
                        "\(file.option): \(VisibleText.escaped(file.path)) is a name the --export "
                            + "pictures use in the same folder")
                }
            }
        }
        return Outputs(trace: trace, timeline: timeline, export: export)
    }

    /// The files the run reads that an output must not replace: the scenario file, when it is one.
    private static func inputPaths(_ options: RunOptions) -> [(option: String, path: String)] {
        guard !ScenarioParser.builtInNames.contains(options.scenario) else { return [] }
        return [("--scenario", options.scenario)]
    }

    private static func openFile(
        _ path: String?, option: String, inputs: [(option: String, path: String)]
    ) throws(WorkbookError) -> OutputFile? {
        guard let path else { return nil }
        for input in inputs where OutputFile.identity(of: input.path) != nil {
            if OutputFile.sameDestination(path, input.path) {
                throw .badInput(
                    "\(option): \(VisibleText.escaped(path)) is the \(input.option) file the run reads; "
                        + "give the output another path")
            }
        }
        do {
            return try OutputFile(path: path, option: option)
        } catch {
            throw .badInput(error.description)
        }
    }
}
