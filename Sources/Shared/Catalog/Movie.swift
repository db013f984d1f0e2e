import Foundation

/// One row of the "hot movies" catalog: a title and the address of its poster.
///
/// The poster's address is kept exactly as the catalog spells it (`urlString`); `url` is set only when that
/// string is an absolute `http` or `https` URL with a host. The articles' `hangge.com` row carries `NO URL`,
/// which has no URL and says why in `invalidURLReason`: loading it fails at once, with no network traffic.
///
/// The simulated server treats every URL whose path contains `/removed/` as a poster it no longer has and
/// answers 404; the bundled catalog has a few such rows on purpose.
public struct Movie: Sendable, Equatable {
    /// The title shown in the cell.
    public let name: String
    /// The poster's address exactly as the catalog gives it, valid or not.
    public let urlString: String
    /// The poster's URL, or nil when `urlString` is not an absolute http or https URL with a host.
    public let url: URL?
    /// Why `url` is nil (for example `not a URL: “NO URL”`), or nil when the URL is usable.
    public let invalidURLReason: String?

    /// Makes a movie, checking whether its poster address is a usable URL.
    public init(name: String, urlString: String) {
        self.name = name
        self.urlString = urlString
        switch Movie.validate(urlString) {
        case .success(let url):
            self.url = url
            self.invalidURLReason = nil
        case .failure(let reason):
            self.url = nil
            self.invalidURLReason = reason.text
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
