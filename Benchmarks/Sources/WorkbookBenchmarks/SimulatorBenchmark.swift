import Foundation
import Shared

/// Runs the simulated phone on one long built-in-code scenario and prints its wall time and memory.
///
/// Run one size per process (as `Benchmarks/run` does) so the peak memory belongs to that size alone.
/// The trace and the stop snapshots are off, as for any long run.
struct SimulatorBenchmark {
    /// Catalog rows.
    let rows: Int
    /// Minutes of gestures.
    let minutes: Double

    /// Plays the scenario once and prints `sim.<rows>.<minutes>.seconds`, `.peakMB`, `.catalogMB`.
    func measure() throws {
        let before = PeakMemory.currentBytes
        let movies = try MovieCatalog.bundled().rows(rows)
        let afterCatalog = PeakMemory.currentBytes
        let scenario = GestureScript.scenario(rows: rows, minutes: minutes)
        var options = PhoneOptions()
        options.keepsTrace = false
        options.keepsStopSnapshots = false
        var virtualSeconds = 0.0
        let seconds = try Stopwatch.seconds {
            let result = try Phone.run(
                step: "PlaceholderApp", scenario: scenario, seed: 7, movies: movies, options: options
            ) { PlaceholderApp() }
            virtualSeconds = Double(result.virtualMicroseconds) / 1e6
        }
        let peak = PeakMemory.peakBytes
        let key = "sim.\(rows).\(FigureWriter.format(minutes))"
        let note = "\(scenario.actions.count) actions, \(FigureWriter.display(virtualSeconds)) virtual s"
        FigureWriter.emit(
            key + ".seconds", unit: "s", median: seconds, minimum: seconds, maximum: seconds, note: note)
        let peakMB = Double(peak) / 1e6
        FigureWriter.emit(key + ".peakMB", unit: "MB", median: peakMB, minimum: peakMB, maximum: peakMB)
        let catalogMB = Double(afterCatalog - before) / 1e6
        FigureWriter.emit(
            key + ".catalogMB", unit: "MB", median: catalogMB, minimum: catalogMB, maximum: catalogMB)
        let aboveCatalog = Double(peak - afterCatalog) / 1e6
        FigureWriter.emit(
            key + ".aboveCatalogMB", unit: "MB", median: aboveCatalog, minimum: aboveCatalog,
            maximum: aboveCatalog)
    }
}
