import Foundation

/// What the server answers for one request, before shaping.
public struct LiveResponse: Sendable {
    /// How the server leaves a request it does not answer at all (an injected fault).
    public enum Unanswered: Sendable, Equatable {
        /// After the request's latency the connection closes with no status line: a refused connection
        /// as a client on loopback can see it (the server has already accepted the connection).
        case closed
        /// Nothing is sent until the client gives up and closes, or the shape's timeout passes and the
        /// server closes: a request that times out.
        case held
    }

    /// The status of a whole answer: 200, or an error such as 404.
    public var status: Int
    public var body: [UInt8]
    public var contentType: String
    /// A fault: the connection closes after this many bytes of the body.
    public var truncatedAfter: Int?
    /// A fault: no answer at all (`status` and `body` are not sent).
    public var unanswered: Unanswered?

    public init(
        status: Int, body: [UInt8], contentType: String = "image/png", truncatedAfter: Int? = nil,
        unanswered: Unanswered? = nil
    ) {
        self.status = status
        self.body = body
        self.contentType = contentType
        self.truncatedAfter = truncatedAfter
        self.unanswered = unanswered
    }
}

/// One request the server answered, or began to, in its log.
public struct LiveRequestRecord: Sendable, Equatable {
    /// How an answer ended.
    public enum Outcome: Sendable, Equatable {
        /// Every byte of the answer was sent.
        case completed
        /// The client closed the connection before the answer was all sent.
        case cancelled
        /// The server closed the connection mid-body, as the response's fault asked.
        case truncated
        /// The request was not one the server answers (a bad head, a method other than GET).
        case refused
        /// The server closed the connection before any answer, as the response's fault asked (a refused
        /// connection).
        case closedUnanswered
        /// A request held unanswered (it timed out, by its fault or a latency past the timeout) until the
        /// shape's timeout passed and the server closed the connection.
        case heldUnanswered
        /// A request held unanswered that the client gave up on first, closing the connection: at its own
        /// timeout, or at any moment when the shape gives no `clientTimeout` (a close well before that
        /// timeout is a cancel).
        case abandoned
    }

    /// The request's place in the order requests arrived, from 0.
    public let sequence: Int
    /// `http://` host and path; empty for a refused request.
    public let url: String
    /// How many requests of the same URL arrived before this one.
    public let attempt: Int
    /// The status sent: 200, 206 for a range, 404, 416 for a range past the end, 400 or 405; 0 when none
    /// was (a request the client left during its latency, or one left unanswered).
    public let status: Int
    /// The first byte a range request asked for.
    public let rangeStart: Int?
    /// The body bytes that left the server.
    public let bodyBytesSent: Int
    public let outcome: Outcome
    /// When the request's head had arrived.
    public let arrived: ContinuousClock.Instant
    /// When the server was done with the request.
    public let ended: ContinuousClock.Instant
}
