import Foundation

// The benchmark executable: one subcommand per measurement, each printing figure lines (see
// `FigureWriter`). `Benchmarks/run` calls them in turn; run with no arguments for the usage.

let usage = """
    usage: WorkbookBenchmarks COMMAND …
      corpus DIR COUNT               write COUNT generated posters as PNG files into DIR
      decode SET RUNS FILE…          time PNGDecoder on the files (MB/s of input, Mpx/s)
      encode SET RUNS FILE…          time PNGEncoder on the files' decoded bitmaps (Mpx/s, output bytes)
      sepia RUNS DIR                 time SepiaFilter on 1920×1080; write its input and output into DIR
      scenario ROWS MINUTES FILE     write the growth scenario of ROWS rows and MINUTES minutes into FILE
      report FIGURES.tsv OUT.md
                                     print the results table and targets, and write them as Markdown

    """

/// Runs the subcommand the arguments name.
func runCommand(_ arguments: [String]) throws {
    guard let command = arguments.first else { throw UsageError() }
    let rest = Array(arguments.dropFirst())
    func files(from index: Int) -> [URL] { rest.dropFirst(index).map { URL(fileURLWithPath: $0) } }
    switch command {
    case "corpus" where rest.count == 2:
        guard let count = Int(rest[1]) else { throw UsageError() }
        for file in try PosterCorpus.write(count: count, into: URL(fileURLWithPath: rest[0])) {
            print(file.path)
        }
    case "decode" where rest.count >= 3:
        guard let runs = Int(rest[1]) else { throw UsageError() }
        try CodecBenchmark(name: rest[0], files: files(from: 2), runs: runs).measureDecoding()
    case "encode" where rest.count >= 3:
        guard let runs = Int(rest[1]) else { throw UsageError() }
        try CodecBenchmark(name: rest[0], files: files(from: 2), runs: runs).measureEncoding()
    case "sepia" where rest.count == 2:
        guard let runs = Int(rest[0]) else { throw UsageError() }
        try SepiaBenchmark(runs: runs).measure(writingInto: URL(fileURLWithPath: rest[1]))
    case "scenario" where rest.count == 3:
        guard let rows = Int(rest[0]), let minutes = Double(rest[1]) else { throw UsageError() }
        try Data(GestureScript.text(rows: rows, minutes: minutes).utf8).write(
            to: URL(fileURLWithPath: rest[2]))
    case "report" where rest.count == 2:
        let text = (try? String(contentsOfFile: rest[0], encoding: .utf8)) ?? ""
        let markdown = ResultsReport(figures: Figure.parse(text)).markdown()
        print(markdown, terminator: "")
        try Data(markdown.utf8).write(to: URL(fileURLWithPath: rest[1]))
    default:
        throw UsageError()
    }
}

/// The arguments did not name a known command with its arguments.
struct UsageError: Error {}

do {
    try runCommand(Array(CommandLine.arguments.dropFirst()))
} catch is UsageError {
    FileHandle.standardError.write(Data(usage.utf8))
    exit(2)
} catch {
    FileHandle.standardError.write(Data("WorkbookBenchmarks: \(error)\n".utf8))
    exit(1)
}
