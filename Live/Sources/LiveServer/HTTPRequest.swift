/// The head of one HTTP/1.1 request, as far as the server needs it.
///
/// A client that talks to the server as its proxy (`http_proxy`) sends the absolute URL on the request
/// line (`GET http://img1.example/p.png HTTP/1.1`); one that talks to it directly sends the path, and the
/// host in the `Host` header. Either way the server answers by host and path, so the catalog's own URLs
/// reach it unchanged.
struct HTTPRequest: Equatable {
    /// The most bytes a request head may take: anything longer is refused.
    static let maximumHeadBytes = 16 * 1024

    var method: String
    /// The host, lowercased, without a port.
    var host: String
    /// The path and query, from the first `/`.
    var path: String
    /// The first byte a `Range: bytes=N-` or `bytes=N-M` header asks for, and the last, if given.
    var range: (first: Int, last: Int?)?
    /// The `Proxy-Authorization` header's value, as a client sends the credentials of its `http_proxy`.
    var proxyAuthorization: String?

    /// The URL the request names: `http://` host and path.
    var url: String { "http://\(host)\(path)" }

    static func == (left: HTTPRequest, right: HTTPRequest) -> Bool {
        left.method == right.method && left.host == right.host && left.path == right.path
            && left.range?.first == right.range?.first && left.range?.last == right.range?.last
    }

    /// Reads a request head (everything before the blank line), or nil when it is not one.
    init?(head: [UInt8]) {
        guard let text = String(validating: head, as: UTF8.self) else { return nil }
        let lines = text.split(separator: "\r\n", omittingEmptySubsequences: false)
        let requestLine = lines.first?.split(separator: " ", omittingEmptySubsequences: true) ?? []
        guard requestLine.count == 3, requestLine[2].hasPrefix("HTTP/1.") else { return nil }
        method = String(requestLine[0])
        var target = Substring(requestLine[1])
        var hostFromTarget: Substring?
        if target.lowercased().hasPrefix("http://") {
            let rest = target.dropFirst("http://".count)
            let slash = rest.firstIndex(of: "/") ?? rest.endIndex
            hostFromTarget = rest[..<slash]
            target = slash == rest.endIndex ? "/" : rest[slash...]
        }
        guard target.hasPrefix("/") else { return nil }
        path = String(target)
        var headerHost: Substring?
        range = nil
        proxyAuthorization = nil
        for line in lines.dropFirst() where !line.isEmpty {
            guard let colon = line.firstIndex(of: ":") else { return nil }
            let name = line[..<colon].lowercased()
            let value = line[line.index(after: colon)...].trimmingSpaces()
            switch name {
            case "host": headerHost = value
            case "range": range = Self.byteRange(value)
            case "proxy-authorization": proxyAuthorization = String(value)
            default: break
            }
        }
        guard let named = hostFromTarget ?? headerHost, !named.isEmpty else { return nil }
        host = String(named.split(separator: ":", maxSplits: 1).first ?? named).lowercased()
    }

    /// The range of `bytes=N-` or `bytes=N-M`; nil for any other form (the whole body is sent).
    private static func byteRange(_ value: Substring) -> (first: Int, last: Int?)? {
        guard value.hasPrefix("bytes=") else { return nil }
        let bounds = value.dropFirst("bytes=".count).split(separator: "-", omittingEmptySubsequences: false)
        guard bounds.count == 2, let first = Int(bounds[0]), first >= 0 else { return nil }
        if bounds[1].isEmpty { return (first, nil) }
        guard let last = Int(bounds[1]), last >= first else { return nil }
        return (first, last)
    }

    /// The index just past the blank line that ends a request head in `bytes`, if it has arrived.
    static func endOfHead(in bytes: [UInt8]) -> Int? {
        guard bytes.count >= 4 else { return nil }
        for index in 3..<bytes.count
        where bytes[index - 3] == 13 && bytes[index - 2] == 10 && bytes[index - 1] == 13 && bytes[index] == 10
        {
            return index + 1
        }
        return nil
    }
}

extension Substring {
    /// The substring without leading and trailing spaces and tabs.
    fileprivate func trimmingSpaces() -> Substring {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) })
        else {
            return ""
        }
        return self[first...last]
    }
}
