/// What a server answers, with status 404, for a removed poster's URL (one with `/removed/` in its path):
/// the simulated server's page and the live one's, byte for byte.
package enum RemovedPosterPage {
    package static let body = Array(
        "<html><head><title>404 Not Found</title></head><body><h1>Not Found</h1><p>The poster was removed.</p></body></html>"
            .utf8)
}
