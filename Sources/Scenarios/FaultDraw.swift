import Imaging

/// A fault the server injects into one request, as `FaultSettings.fault(url:attempt:seed:)` draws
/// it. The simulator's network and the live server both apply it, from the same draw.
package enum Fault: Sendable, Equatable, CaseIterable {
    /// No answer: the client gives up after its timeout.
    case timeout
    /// The connection is refused (live: accepted and closed before any answer).
    case refused
    /// Status 500 with `Fault.serverErrorBody` instead of the poster.
    case serverError
    /// The body is cut at `Fault.truncatedLength(of:)` and the connection lost.
    case truncated
    /// The body arrives whole with a few bytes flipped (`FaultSettings.corrupted(_:url:seed:)`), so
    /// its CRCs fail.
    case corrupt

    /// The fault's name as a scenario's `faults` line spells it.
    package var name: String {
        switch self {
        case .timeout: "timeout"
        case .refused: "refused"
        case .serverError: "server-error"
        case .truncated: "truncated"
        case .corrupt: "corrupt"
        }
    }

    /// The body a server error sends.
    package static let serverErrorBody = Array("<html><body>500 Internal Server Error</body></html>".utf8)

    /// How many bytes of a body of `count` bytes a truncated answer sends before the connection drops.
    package static func truncatedLength(of count: Int) -> Int {
        count * 3 / 5
    }
}

extension FaultSettings {
    /// Whether any request can draw a fault (a slow host alone draws none).
    package var drawsFaults: Bool {
        timeoutPerMille + refusedPerMille + serverErrorPerMille + truncatedPerMille + corruptPerMille > 0
    }

    /// The fault for a URL's attempt (0 for its first request): a pure function of the seed, the URL and
    /// the attempt, not of the order requests start, so a step that starts the same requests in another
    /// order, or a live run, meets the same faults. One draw in 0..<1000 falls into the shares in the
    /// order timeout, refused, server error, truncated, corrupt; past them, no fault.
    package func fault(url: String, attempt: Int, seed: UInt64) -> Fault? {
        guard drawsFaults else { return nil }
        var generator = SeededGenerator(seed: seed ^ FNV1a64.hash(url) &+ UInt64(attempt), stream: "faults")
        var draw = Int(generator.below(1000))
        let shares: [(Fault, Int)] = [
            (.timeout, timeoutPerMille), (.refused, refusedPerMille), (.serverError, serverErrorPerMille),
            (.truncated, truncatedPerMille), (.corrupt, corruptPerMille),
        ]
        for (fault, share) in shares {
            if draw < share { return fault }
            draw -= share
        }
        return nil
    }

    /// A corrupt answer's body: eight bytes past the first 64 flipped (xor 0xa5) at places drawn from the
    /// seed and the URL (the same for every attempt), or, for a body of 64 bytes or fewer, every byte
    /// flipped (xor 0x5a).
    package static func corrupted(_ body: [UInt8], url: String, seed: UInt64) -> [UInt8] {
        guard body.count > 64 else { return body.map { $0 ^ 0x5a } }
        var copy = body
        var generator = SeededGenerator(seed: seed ^ FNV1a64.hash(url), stream: "corrupt")
        for _ in 0..<8 {
            let index = 64 + Int(generator.below(Int64(body.count - 64)))
            copy[index] ^= 0xa5
        }
        return copy
    }
}
