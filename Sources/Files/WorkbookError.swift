/// A problem with what the user asked for: printed as one line, exit code 2.
package enum WorkbookError: Error, Equatable, CustomStringConvertible {
    /// Bad input: an option, a file, a folder.
    case badInput(String)

    public var description: String {
        switch self {
        case .badInput(let message): return message
        }
    }
}
