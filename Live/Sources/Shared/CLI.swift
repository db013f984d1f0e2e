import Foundation

/// The command line's options, as the steps read them.
public struct RunOptions: Sendable, Equatable {
    /// How many downloads at once (nil for the step's own choice).
    public var concurrency: Int?
    /// The techniques `--without` turns off.
    public var without: [String] = []

    public init() {}
}

/// What the harness needs to run a step.
public protocol WorkbookStep {
    static var name: String { get }
    static var summary: String { get }
    static func makeApp(_ options: RunOptions) -> TableViewController
    static var techniques: [String] { get }
}

extension WorkbookStep {
    public static var techniques: [String] { [] }
}

/// Runs a step as a command. Compile twin: it says that the live mode is not built yet and exits 2; the
/// live executables exist so that CI checks the step sources compile against real Foundation.
public enum Workbook {
    public static func main(
        step: String, summary: String, techniques: [String] = [],
        makeApp: @escaping (RunOptions) -> TableViewController
    ) -> Never {
        FileHandle.standardError.write(
            Data(
                "\(step): built against real Foundation as a compile check; the live mode is not built yet\n"
                    .utf8))
        exit(2)
    }
}
