import Files
import Foundation

/// The list of movies the table shows, read from a property list (`movies.plist`).
///
/// The file is an array of dictionaries, each with the string keys `name` and `url`. A scenario may ask for
/// more rows than the file holds: `rows(_:)` then repeats the catalog, giving each repetition new titles
/// and new URLs so that every row still has its own poster.
public struct MovieCatalog: Sendable {
    /// The movies in file order.
    package let movies: [Movie]

    /// Makes a catalog from movies already in memory.
    init(movies: [Movie]) {
        self.movies = movies
    }

    /// Reads and checks a catalog file.
    ///
    /// - Throws: `CatalogError`, naming the file and, for a bad entry, its number and key.
    package static func load(from url: URL) throws(CatalogError) -> MovieCatalog {
        let path = url.path
        let data: Data
        do {
            data = Data(try BoundedFile.read(path, as: .catalog))
        } catch {
            throw .unreadableFile(path: path, reason: error.description)
        }
        return try parse(data, path: path)
    }

    /// The largest catalog file read: 10 MB (10 000 000 bytes), about a hundred thousand movies. A larger
    /// file is refused from its size alone, before it is read.
    package static let maximumFileBytes = BoundedFile.Kind.catalog.maximumBytes

    /// Checks a catalog's bytes; `path` names it in errors.
    static func parse(_ data: Data, path: String) throws(CatalogError) -> MovieCatalog {
        let root: Any
        do {
            root = try PropertyListSerialization.propertyList(from: data, options: [], format: nil)
        } catch {
            throw .notAPropertyList(path: path)
        }
        guard let entries = root as? [Any] else {
            throw .rootNotAnArray(path: path, found: describeKind(of: root))
        }
        guard !entries.isEmpty else {
            throw .emptyCatalog(path: path)
        }
        var movies: [Movie] = []
        movies.reserveCapacity(entries.count)
        for (index, entry) in entries.enumerated() {
            guard let fields = entry as? [String: Any] else {
                throw .entryNotADictionary(path: path, entry: index, found: describeKind(of: entry))
            }
            let name = try stringField("name", in: fields, entry: index, path: path)
            let urlString = try stringField("url", in: fields, entry: index, path: path)
            movies.append(Movie(name: name, urlString: urlString))
        }
        return MovieCatalog(movies: movies)
    }

    /// Reads the catalog shipped with the package (`Resources/movies.plist`).
    public static func bundled() throws -> MovieCatalog {
        guard let url = Bundle.module.url(forResource: "movies", withExtension: "plist") else {
            throw CatalogError.unreadableFile(
                path: "movies.plist", reason: "the resource is missing from the Shared bundle")
        }
        return try load(from: url)
    }

    /// The first `count` table rows, repeating the catalog past its end.
    ///
    /// Row `i` is catalog entry `i % movies.count` in cycle `k = i / movies.count`. Cycle 0 is the catalog
    /// as it is. In cycle `k ≥ 1` the title becomes “<title> · <k+1>” and a valid URL gets the query item
    /// `copy=<k+1>` (appended with `?`, or `&` if the URL already has a query), so repeated rows are new
    /// posters. Invalid addresses (`NO URL`) stay as they are and stay invalid; `/removed/` paths keep
    /// answering 404; rows that share a URL in the catalog share it within each cycle too. A repeated row
    /// is two words (`Movie(repeating:copy:)`): its title and URL are made when asked for.
    public func rows(_ count: Int) -> [Movie] {
        guard count > 0, !movies.isEmpty else { return [] }
        var result: [Movie] = []
        result.reserveCapacity(count)
        for row in 0..<count {
            let movie = movies[row % movies.count]
            let cycle = row / movies.count
            result.append(cycle == 0 ? movie : Movie(repeating: movie, copy: cycle + 1))
        }
        return result
    }

    /// The string value of a required key, or the error that names the entry and key.
    private static func stringField(
        _ key: String, in fields: [String: Any], entry: Int, path: String
    ) throws(CatalogError) -> String {
        guard let value = fields[key] else {
            throw .missingKey(path: path, entry: entry, key: key)
        }
        guard let string = value as? String else {
            throw .wrongType(path: path, entry: entry, key: key, found: describeKind(of: value))
        }
        return string
    }

    /// Names a property-list value's kind for messages: “a string”, “a dictionary”, …
    static func describeKind(of value: Any) -> String {
        switch value {
        case is String: return "a string"
        case is [String: Any]: return "a dictionary"
        case is [Any]: return "an array"
        case is Data: return "data"
        case is Date: return "a date"
        case is Bool: return "a boolean"
        case is NSNumber: return "a number"
        default: return "a value of type \(type(of: value))"
        }
    }

}
