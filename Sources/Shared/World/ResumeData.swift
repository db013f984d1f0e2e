import Foundation

/// What a cancelled transfer leaves behind so that a later request for the same URL can ask for the rest
/// only (an HTTP range request): the bytes that arrived and the validator (an ETag) of the body they
/// belong to. Like URLSession's resume data, the app keeps it and hands it back.
public struct ResumeData: Sendable, Equatable {
    /// The URL whose body this begins.
    public let url: URL
    /// The body's first bytes, as they arrived.
    let received: [UInt8]
    /// The ETag of the whole body: a range is served only if the body has not changed since.
    let validator: String
    /// The transfer that moved the last of these bytes (for crediting them when the poster is shown).
    let download: Int

    /// How many of the body's bytes are kept.
    public var count: Int { received.count }
}
