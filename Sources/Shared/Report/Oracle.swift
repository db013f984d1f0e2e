import Foundation

/// The least network work any strategy needs for a scenario: each distinct poster of the rows visible
/// while the table is at rest, fetched once per disk lifetime (the whole run).
public struct Oracle: Sendable, Equatable {
    /// Distinct URLs to request (invalid URLs need none).
    public let requests: Int
    /// Their body bytes, as the server sends them.
    public let bytes: Int

    package init(requests: Int, bytes: Int) {
        self.requests = requests
        self.bytes = bytes
    }
}
