/// A live run's options: `--scenario NAME|FILE`, `--seed N`, `--concurrency N`, `--json`, `--help`.
struct LiveOptions {
    var scenario = "course"
    var seed: UInt64?
    /// Print the report as the simulator's `--json` object instead of text.
    var json = false
    var run = RunOptions()

    /// Why the arguments were refused.
    struct Refusal: Error {
        let message: String
    }

    static let usage = """
        options: --scenario NAME|FILE (default course), --seed N, --concurrency N, --json, --help
        Runs the step live: real threads, real Foundation, a real HTTP server on loopback, wall-clock time.
        """

    /// Reads the arguments after the program's name; nil for `--help`.
    static func parse(_ arguments: [String]) throws(Refusal) -> LiveOptions? {
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
            default:
                throw Refusal(message: "unknown option “\(argument)” (the live mode takes \(usageLine))")
            }
        }
        return options
    }

    private static let usageLine = "--scenario, --seed, --concurrency, --json, --help"
}
