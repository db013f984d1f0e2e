import Foundation

/// Why a simulated request failed.
public enum NetworkError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The URL is not an http(s) URL with a host (the articles' `NO URL` row).
    case invalidURL
    /// The server answered with a status other than 200 (404 for a removed poster, 500 for a fault).
    case status(Int)
    /// No answer before the client's timeout.
    case timedOut
    /// The host refused the connection.
    case connectionRefused
    /// The connection dropped before the whole body arrived.
    case connectionLost
    /// The request was cancelled.
    case cancelled

    public var description: String {
        switch self {
        case .invalidURL: return "not a valid http(s) URL"
        case .status(let code): return "HTTP status \(code)"
        case .timedOut: return "timed out"
        case .connectionRefused: return "connection refused"
        case .connectionLost: return "connection lost mid-body"
        case .cancelled: return "cancelled"
        }
    }

    /// Whether trying again later could succeed (timeouts, refusals, 5xx, dropped connections).
    public var isTransient: Bool {
        switch self {
        case .timedOut, .connectionRefused, .connectionLost: return true
        case .status(let code): return code >= 500
        case .invalidURL, .cancelled: return false
        }
    }
}

/// What a cancelled transfer leaves behind so that a later request for the same URL can ask for the rest
/// only (an HTTP range request): the bytes that arrived and the validator (an ETag) of the body they
/// belong to. Like URLSession's resume data, the app keeps it and hands it back.
public struct ResumeData: Sendable, Equatable {
    /// The URL whose body this begins.
    public let url: URL
    /// The body's first bytes, as they arrived.
    package let received: [UInt8]
    /// The ETag of the whole body: a range is served only if the body has not changed since.
    package let validator: String
    /// The transfer that moved the last of these bytes (for crediting them when the poster is shown).
    package let download: Int

    package init(url: URL, received: [UInt8], validator: String, download: Int) {
        self.url = url
        self.received = received
        self.validator = validator
        self.download = download
    }

    /// How many of the body's bytes are kept.
    public var count: Int { received.count }
}
