/// Why a movie catalog (a property list of `name` / `url` rows) could not be loaded.
///
/// Entries are numbered from 0, like the table rows they become.
package enum CatalogError: Error, Equatable, CustomStringConvertible {
    /// The file could not be read at all (missing, a directory, no permission).
    case unreadableFile(path: String, reason: String)
    /// The bytes are not a property list in any format Foundation reads.
    case notAPropertyList(path: String)
    /// The property list's root is not an array (`found` names what it is instead).
    case rootNotAnArray(path: String, found: String)
    /// An entry of the root array is not a dictionary.
    case entryNotADictionary(path: String, entry: Int, found: String)
    /// An entry has no value for a required key (`name` or `url`).
    case missingKey(path: String, entry: Int, key: String)
    /// An entry's value for a required key is not a string.
    case wrongType(path: String, entry: Int, key: String, found: String)
    /// The root array has no entries.
    case emptyCatalog(path: String)

    /// One sentence naming the file and what is wrong with it.
    public var description: String {
        switch self {
        case .unreadableFile(let path, let reason):
            return "\(path): cannot read the movie catalog (\(reason))."
        case .notAPropertyList(let path):
            return "\(path): the movie catalog is not a property list."
        case .rootNotAnArray(let path, let found):
            return "\(path): the movie catalog must be an array of movies, but its root is \(found)."
        case .entryNotADictionary(let path, let entry, let found):
            return "\(path): entry \(entry) of the movie catalog must be a dictionary, but it is \(found)."
        case .missingKey(let path, let entry, let key):
            return "\(path): entry \(entry) of the movie catalog has no “\(key)” key."
        case .wrongType(let path, let entry, let key, let found):
            return "\(path): entry \(entry) of the movie catalog has “\(key)” as \(found), expected a string."
        case .emptyCatalog(let path):
            return "\(path): the movie catalog has no movies."
        }
    }
}
