import Foundation

import struct Synchronization.Atomic

/// Where a live request goes: the catalog's URL as plain `http` (the loopback server speaks no TLS), so
/// that the process's `http_proxy` sends it to the server with its host kept.
enum LiveAddress {
    /// The URL a request for `url` asks for; nil for a URL with no host, which fails at once, unsent.
    /// Counts the request as started: the caller counts it as ended (`LiveCounters.requestEnded`).
    static func request(for url: URL) -> URL? {
        guard url.host != nil else { return nil }
        LiveCounters.requestStarted()
        return plain(url)
    }

    /// `url` with the scheme `http`.
    static func plain(_ url: URL) -> URL {
        guard var parts = URLComponents(url: url, resolvingAgainstBaseURL: false), parts.scheme != "http"
        else { return url }
        parts.scheme = "http"
        return parts.url ?? url
    }
}

/// What the app counted on its side of the network.
enum LiveCounters {
    private static let started = Atomic<Int>(0)
    private static let ended = Atomic<Int>(0)

    static func requestStarted() {
        started.add(1, ordering: .relaxed)
    }

    /// A request the app started has ended, however it ended.
    static func requestEnded() {
        ended.add(1, ordering: .relaxed)
    }

    /// Requests the app started (a URL without a host is none).
    static var requestsStarted: Int { started.load(ordering: .relaxed) }

    /// Requests the app started that have not ended.
    static var requestsInFlight: Int { requestsStarted - ended.load(ordering: .relaxed) }
}
