import Foundation

/// One row of the "hot movies" catalog: a title and the address of its poster.
///
/// The poster's address is kept exactly as the catalog spells it (`urlString`); `url` is set only when that
/// string is an absolute `http` or `https` URL with a host. The articles' `hangge.com` row carries `NO URL`,
/// which has no URL and says why in `invalidURLReason`: loading it fails at once, with no network traffic.
///
/// The simulated server treats every URL whose path contains `/removed/` as a poster it no longer has and
/// answers 404; the bundled catalog has a few such rows on purpose.
///
/// A row of a repeated catalog (`MovieCatalog.rows(_:)`) is its catalog entry and the number of the
/// repetition, two words: its title, address and URL are made from them when asked for, so a table of
/// 100,000 rows holds no title, address or URL of its own until a step asks for one.
public struct Movie: Sendable, Equatable {
    /// The catalog entry this row shows, shared by every repetition of it.
    private let entry: Entry
    /// Which repetition of the catalog the row is in: 1 for the catalog as it is.
    let copy: Int

    /// The title shown in the cell.
    public var name: String {
        copy == 1 ? entry.name : "\(entry.name) · \(copy)"
    }

    /// The poster's address exactly as the catalog gives it, valid or not.
    public var urlString: String {
        guard copy != 1, let separator = entry.querySeparator else { return entry.urlString }
        return "\(entry.urlString)\(separator)copy=\(copy)"
    }

    /// The poster's URL, or nil when `urlString` is not an absolute http or https URL with a host.
    public var url: URL? {
        guard copy != 1, entry.url != nil else { return entry.url }
        return try? Movie.validate(urlString).get()
    }

    /// Why `url` is nil (for example `not a URL: “NO URL”`), or nil when the URL is usable.
    package var invalidURLReason: String? {
        guard copy != 1, entry.url != nil else { return entry.invalidURLReason }
        if case .failure(let reason) = Movie.validate(urlString) { return reason.text }
        return nil
    }

    /// Makes a movie, checking whether its poster address is a usable URL.
    package init(name: String, urlString: String) {
        entry = Entry(name: name, urlString: urlString)
        copy = 1
    }

    /// The `copy`-th repetition of a catalog row (see `MovieCatalog.rows(_:)`): the title becomes
    /// “<title> · <copy>” and a valid URL gets the query item `copy=<copy>` (appended with `?`, or `&` if
    /// the URL already has a query). An invalid address stays as it is and stays invalid.
    init(repeating movie: Movie, copy: Int) {
        precondition(movie.copy == 1 && copy >= 1, "only a catalog row is repeated")
        entry = movie.entry
        self.copy = copy
    }

    /// Two rows are equal when they show the same title and address.
    public static func == (left: Movie, right: Movie) -> Bool {
        (left.entry === right.entry && left.copy == right.copy)
            || (left.name == right.name && left.urlString == right.urlString)
    }

    /// A catalog entry as the file gives it, checked once.
    private final class Entry: Sendable {
        let name: String
        let urlString: String
        let url: URL?
        let invalidURLReason: String?
        /// What a repetition appends its `copy=` query item with: `?`, or `&` when the URL has a query
        /// already; nil when the address is not a usable URL (repetitions keep it as it is).
        let querySeparator: String?

        init(name: String, urlString: String) {
            self.name = name
            self.urlString = urlString
            switch Movie.validate(urlString) {
            case .success(let url):
                self.url = url
                invalidURLReason = nil
                querySeparator = url.query == nil ? "?" : "&"
            case .failure(let reason):
                url = nil
                invalidURLReason = reason.text
                querySeparator = nil
            }
        }
    }

    /// The reason a poster address was refused, as a message.
    struct InvalidURL: Error {
        /// The one-line explanation.
        let text: String
    }

    /// Accepts absolute http and https URLs that name a host; anything else gets a reason.
    ///
    /// `URL(string:)` on Linux turns "NO URL" into a relative URL, so the scheme and host are checked too.
    static func validate(_ string: String) -> Result<URL, InvalidURL> {
        let quoted = "“\(string)”"
        if string.isEmpty {
            return .failure(InvalidURL(text: "no URL: the address is empty"))
        }
        guard let url = URL(string: string), let scheme = url.scheme?.lowercased() else {
            return .failure(InvalidURL(text: "not a URL: \(quoted)"))
        }
        guard scheme == "http" || scheme == "https" else {
            return .failure(InvalidURL(text: "not an http or https URL: \(quoted)"))
        }
        guard let host = url.host, !host.isEmpty else {
            return .failure(InvalidURL(text: "URL without a host: \(quoted)"))
        }
        return .success(url)
    }
}
