import Foundation
import Testing

@testable import Posters
@testable import World

/// World: poster server.
extension WorldTests {
    /// Poster URLs of each kind the oracle sizes: plain, with a query, repeated rows, and a removed poster.
    static let urls = [
        "https://img.posters.test/p/1.png", "https://img.posters.test/p/2.png?size=large",
        "https://img.posters.test/p/3.png?copy=7", "https://img.posters.test/removed/4.png",
    ]

    @Test("The oracle's size of an answer is the same whether the server sent it earlier in the run or not")
    func sentSizeIsRememberedExactly() throws {
        for string in Self.urls {
            let url = try #require(URL(string: string))
            let fresh = try PosterServer(postersDirectory: nil)
            let unsent = fresh.sentByteCount(for: url)
            let server = try PosterServer(postersDirectory: nil)
            let response = server.response(for: url)
            let sent = server.sentByteCount(for: url)
            #expect(sent == unsent, "\(string)")
            if response.status == 200 {
                // What the phone receives: the body with the URL stamped in, larger than the body.
                let stamped = PosterStamp.stamp(response.body, url: string)
                #expect(PosterStamp.source(of: stamped) == string)
                #expect(sent == stamped.count && sent > response.body.count, "\(string)")
            } else {
                #expect(sent == response.body.count, "\(string)")
            }
        }
    }
}
