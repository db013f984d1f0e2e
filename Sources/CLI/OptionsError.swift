/// A command line the steps cannot run with; the harness prints it and exits with code 2.
package enum OptionsError: Error, Equatable, CustomStringConvertible {
    /// An option no step knows, with the closest known option when one is within two edits.
    case unknownOption(String, suggestion: String?)
    /// An option that needs a value came last or was followed by another option.
    case missingValue(option: String)
    /// An option's value has the wrong shape; `expected` says what it should be.
    case badValue(option: String, value: String, expected: String)
    /// The same option was given twice.
    case duplicateOption(String)
    /// A word that is not an option (the steps take no positional arguments).
    case unexpectedArgument(String)

    /// One line saying what is wrong and what to do.
    public var description: String {
        switch self {
        case .unknownOption(let option, let suggestion):
            if let suggestion {
                return "unknown option “\(option)”; did you mean “\(suggestion)”? (--help lists the options)"
            }
            return "unknown option “\(option)” (--help lists the options)"
        case .missingValue(let option):
            return "option “\(option)” needs a value (--help lists the options)"
        case .badValue(let option, let value, let expected):
            return "bad value “\(value)” for “\(option)”: expected \(expected)"
        case .duplicateOption(let option):
            return "option “\(option)” is given more than once"
        case .unexpectedArgument(let argument):
            return
                "unexpected argument “\(argument)”; options start with “--” "
                + "(for a scenario, write --scenario \(argument))"
        }
    }
}
