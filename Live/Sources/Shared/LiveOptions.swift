import Scenarios

/// A live run's options: `--scenario NAME|FILE`, `--seed N`, `--concurrency N`, `--without LIST`,
/// `--json`, `--settle-limit SECONDS`, `--help`.
struct LiveOptions {
    var scenario = "course"
    var seed: UInt64?
    /// Print the report as the simulator's `--json` object instead of text.
    var json = false
    var run = RunOptions()
    /// How long after the scenario's end the run may go on finishing its work before it is cut, in
    /// microseconds: the simulator's allowance unless `--settle-limit` says otherwise.
    var settleAllowance = GestureTimeline.settleAllowance

    /// Why the arguments were refused.
    struct Refusal: Error {
        let message: String
    }

    static let usage = """
        options: --scenario NAME|FILE (default course), --seed N, --concurrency N, --without LIST (of
                 the step's techniques, as simulated), --json, --settle-limit SECONDS (how long after
                 the scenario's end the app may finish its work before the run is cut; default 600, as
                 simulated), --help
        Runs the step live: real threads, real Foundation, a real HTTP server on loopback, wall-clock time.
        """

    /// Reads the arguments after the program's name; nil for `--help`. `--without` may name only
    /// `techniques`, the step's own.
    static func parse(_ arguments: [String], techniques: [String] = []) throws(Refusal) -> LiveOptions? {
        var options = LiveOptions()
        var rest = arguments[...]
        func value(_ option: String) throws(Refusal) -> String {
            guard let next = rest.popFirst() else { throw Refusal(message: "\(option) needs a value") }
            return next
        }
        while let argument = rest.popFirst() {
            switch argument {
            case "--help", "-h": return nil
            case "--scenario": options.scenario = try value(argument)
            case "--json": options.json = true
            case "--seed":
                let text = try value(argument)
                guard let seed = UInt64(text) else {
                    throw Refusal(message: "--seed takes a whole number from 0, not “\(text)”")
                }
                options.seed = seed
            case "--concurrency":
                let text = try value(argument)
                guard let count = Int(text), (1...64).contains(count) else {
                    throw Refusal(message: "--concurrency takes a whole number from 1 to 64, not “\(text)”")
                }
                options.run.concurrency = count
            case "--without":
                let text = try value(argument)
                let words = text.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
                if let unknown = words.first(where: { !techniques.contains($0) }) {
                    let expected =
                        techniques.isEmpty
                        ? "nothing: this step has no techniques to turn off"
                        : "a comma-separated list of " + techniques.joined(separator: ", ")
                    throw Refusal(message: "--without takes \(expected), not “\(unknown)”")
                }
                options.run.without = techniques.filter(words.contains)
            case "--settle-limit":
                let text = try value(argument)
                guard let seconds = Int(text), (0...3600).contains(seconds) else {
                    throw Refusal(
                        message:
                            "--settle-limit takes a whole number of seconds from 0 to 3600, not “\(text)”")
                }
                options.settleAllowance = Int64(seconds) * 1_000_000
            default:
                throw Refusal(message: "unknown option “\(argument)” (the live mode takes \(usageLine))")
            }
        }
        return options
    }

    private static let usageLine =
        "--scenario, --seed, --concurrency, --without, --json, --settle-limit, --help"
}
