import Foundation
import Shared
import TestSupport
import Testing

@testable import Catalog

/// Movie catalog.
extension InputTests {
    /// The article's eight titled rows, then `hangge.com`, written out by hand from the article.
    static let articleRows: [(name: String, picture: String, kind: String)] = [
        ("港囧", "p2266145079", "spst"),
        ("第三种爱情", "p2267236332", "mpst"),
        ("碟中谍5", "p2263582212", "mpst"),
        ("小黄人大眼萌", "p2265761240", "mpst"),
        ("夏洛特烦恼", "p2264377763", "mpst"),
        ("魔镜", "p2266110047", "mpst"),
        ("长江7号", "p2268754172", "mpst"),
        ("九层妖塔", "p2267502788", "mpst"),
    ]

    /// Wraps a plist body in the XML header.
    func plist(_ body: String) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">
        \(body)
        </plist>
        """
    }

    /// Loads a catalog file expecting a failure, and returns the error.
    func loadError(_ url: URL) -> CatalogError? {
        do {
            _ = try MovieCatalog.load(from: url)
            return nil
        } catch {
            return error
        }
    }

    @Test("The bundled catalog starts with the article's nine rows in order, with their titles")
    func articleRowsComeFirst() throws {
        let movies = try MovieCatalog.bundled().movies
        for (index, row) in Self.articleRows.enumerated() {
            #expect(movies[index].name == row.name)
            let expected =
                "https://img3.posters.test/view/movie_poster_cover/\(row.kind)/public/\(row.picture).png"
            #expect(movies[index].urlString == expected)
            #expect(movies[index].url?.absoluteString == expected)
            #expect(movies[index].invalidURLReason == nil)
        }
        #expect(movies[8].name == "hangge.com")
        #expect(movies[8].urlString == "NO URL")
    }

    @Test("The NO URL row has no URL and says why")
    func noURLRowSaysWhy() throws {
        let movie = try MovieCatalog.bundled().movies[8]
        #expect(movie.url == nil)
        #expect(movie.invalidURLReason == "not a URL: “NO URL”")
    }

    @Test("The bundled catalog has at least 220 rows spread over the three hosts")
    func catalogSpreadsOverHosts() throws {
        let movies = try MovieCatalog.bundled().movies
        #expect(movies.count >= 220)
        let hosts = Set(movies.compactMap { $0.url?.host })
        #expect(hosts == ["img1.posters.test", "img2.posters.test", "img3.posters.test"])
        #expect(Set(movies.map(\.name)).count == movies.count, "titles are distinct")
        #expect(movies.filter { $0.url == nil }.count == 1, "only hangge.com is invalid")
    }

    @Test("Some rows point at removed posters the server answers with 404")
    func someRowsPointAtRemovedPosters() throws {
        let movies = try MovieCatalog.bundled().movies
        let removed = movies.indices.filter { movies[$0].urlString.contains("/removed/") }
        #expect(removed.count >= 3)
        #expect(removed.allSatisfy { movies[$0].url != nil }, "404 rows are valid URLs")
        #expect(removed.contains { $0 < 16 }, "one is near the top, so the course meets it")
    }

    @Test("Two pairs of rows share one URL exactly")
    func twoRowPairsShareAURL() throws {
        let movies = try MovieCatalog.bundled().movies.filter { $0.url != nil }
        let counts = Dictionary(grouping: movies, by: \.urlString).mapValues(\.count)
        let shared = counts.filter { $0.value > 1 }
        #expect(shared.count == 2)
        #expect(shared.values.allSatisfy { $0 == 2 })
    }

    @Test("One pair of different URLs shares its last path component")
    func onePairSharesLastPathComponent() throws {
        let movies = try MovieCatalog.bundled().movies.filter { $0.url != nil }
        let distinctURLs = Set(movies.map(\.urlString))
        let byLastComponent = Dictionary(
            grouping: distinctURLs, by: { $0.split(separator: "/").last! })
        let colliding = byLastComponent.values.filter { $0.count > 1 }
        #expect(colliding.count == 1)
        let pair = try #require(colliding.first).sorted()
        #expect(pair.count == 2)
        #expect(pair[0].contains("/mpst/public/"))
        #expect(pair[1].contains("/spst/public/"))
    }

    @Test("Addresses without an http(s) scheme or a host are refused with a reason")
    func addressesWithoutSchemeOrHost() throws {
        for text in [
            "NO URL", "", "ftp://img1.posters.test/p.png", "http:///p.png", "img1.posters.test/p.png",
        ] {
            let movie = Movie(name: "x", urlString: text)
            #expect(movie.url == nil, "\(text)")
            #expect(movie.invalidURLReason?.isEmpty == false, "\(text)")
        }
        let good = Movie(name: "x", urlString: "http://img1.posters.test/a/p1.png")
        #expect(good.url?.host == "img1.posters.test")
        #expect(good.invalidURLReason == nil)
    }

    @Test(
        "A malformed catalog is refused naming what is wrong: not a property list, a dictionary at the root, an entry without “url”, a number for “url”, an entry that is not a dictionary, no entries"
    )
    func malformedCatalogs() throws {
        // Each malformed file is refused with the error that names what is wrong in it; one test for all, so
        // a passing run prints one line, while a failing expectation shows the error it got.
        let folder = try StepFixtures.folder("malformed-catalogs")
        defer { try? FileManager.default.removeItem(at: folder) }
        func file(_ name: String, _ text: String) throws -> URL {
            let url = folder.appendingPathComponent("\(name).plist")
            try Data(text.utf8).write(to: url)
            return url
        }
        let notAPlist = try file("not-a-plist", "<<<not a plist")
        #expect(loadError(notAPlist) == .notAPropertyList(path: notAPlist.path))
        #expect(loadError(notAPlist)?.description.contains(notAPlist.path) == true)

        let dictionary = try file(
            "dictionary", plist("<dict><key>港囧</key><string>http://a.test/p.png</string></dict>"))
        #expect(loadError(dictionary) == .rootNotAnArray(path: dictionary.path, found: "a dictionary"))

        let withoutURL = try file(
            "without-url",
            plist(
                """
                <array>
                <dict><key>name</key><string>One</string><key>url</key><string>https://a.test/1.png</string></dict>
                <dict><key>name</key><string>Two</string></dict>
                </array>
                """))
        let error = loadError(withoutURL)
        #expect(error == .missingKey(path: withoutURL.path, entry: 1, key: "url"))
        #expect(
            error?.description == "\(withoutURL.path): entry 1 of the movie catalog has no “url” key.")

        let number = try file(
            "number",
            plist(
                "<array><dict><key>name</key><string>One</string><key>url</key><integer>5</integer></dict></array>"
            ))
        #expect(
            loadError(number) == .wrongType(path: number.path, entry: 0, key: "url", found: "a number"))

        let string = try file("string", plist("<array><string>港囧</string></array>"))
        #expect(loadError(string) == .entryNotADictionary(path: string.path, entry: 0, found: "a string"))

        let empty = try file("empty", plist("<array/>"))
        #expect(loadError(empty) == .emptyCatalog(path: empty.path))
    }

    @Test("A missing file and a directory are unreadable, with the reason")
    func unreadableFiles() throws {
        let missing = StepFixtures.path("absent")
        #expect(loadError(missing) == .unreadableFile(path: missing.path, reason: "no such file"))
        let directory = try StepFixtures.folder("dir")
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(
            loadError(directory)
                == .unreadableFile(path: directory.path, reason: "is a directory, not a regular file"))
    }

    @Test("Rows past the end repeat the catalog with new titles and new URLs")
    func rowsPastTheEndRepeat() throws {
        let catalog = try MovieCatalog.bundled()
        let count = catalog.movies.count
        let rows = catalog.rows(500)
        #expect(rows.count == 500)
        #expect(Array(rows.prefix(count)) == catalog.movies)
        #expect(rows[count].name == "港囧 · 2")
        #expect(
            rows[count].urlString
                == "https://img3.posters.test/view/movie_poster_cover/spst/public/p2266145079.png?copy=2")
        #expect(rows[2 * count].name == "港囧 · 3")
        #expect(rows[2 * count].urlString.hasSuffix("p2266145079.png?copy=3"))
        #expect(rows[count + 8].url == nil, "NO URL stays invalid")
        #expect(rows[count + 8].urlString == "NO URL")
        let firstCycleURLs = Set(rows[..<count].compactMap(\.url))
        let secondCycleURLs = Set(rows[count..<(2 * count)].compactMap(\.url))
        #expect(firstCycleURLs.isDisjoint(with: secondCycleURLs))
        #expect(secondCycleURLs.count == firstCycleURLs.count)
        #expect(rows[13].urlString == rows[15].urlString, "a shared pair in the catalog")
        #expect(rows[count + 13].urlString == rows[count + 15].urlString, "stays shared in the copy")
        #expect(rows[count + 13].urlString != rows[13].urlString)
        #expect(Set(rows.map(\.name)).count == 500)
        let removedCopies = rows[count...].filter { $0.urlString.contains("/removed/") }
        #expect(!removedCopies.isEmpty)
        #expect(catalog.rows(0).isEmpty)
        #expect(catalog.rows(3).map(\.name) == ["港囧", "第三种爱情", "碟中谍5"])
    }

    @Test("A URL that already has a query gets “&copy=” when repeated")
    func queryGetsCopyParameter() throws {
        let movie = Movie(name: "Q", urlString: "https://img1.posters.test/p.png?size=2")
        let copy = Movie(repeating: movie, copy: 2)
        #expect(copy.urlString == "https://img1.posters.test/p.png?size=2&copy=2")
        #expect(copy.name == "Q · 2")
    }

    @Test("A repeated row, made lazily, is the movie its title and address make")
    func repeatedRowIsMadeLazily() throws {
        let catalog = try MovieCatalog.bundled()
        let rows = catalog.rows(3 * catalog.movies.count + 7)
        for row in rows {
            let eager = Movie(name: row.name, urlString: row.urlString)
            #expect(row == eager, "\(row.name)")
            #expect(row.url == eager.url, "\(row.name)")
            #expect(row.url?.absoluteString == (row.url == nil ? nil : row.urlString), "\(row.name)")
            #expect(row.invalidURLReason == eager.invalidURLReason, "\(row.name)")
        }
        #expect(rows[catalog.movies.count] != rows[2 * catalog.movies.count])
    }

    @Test(
        "A row is two words however many rows the table has, so the catalog's memory does not grow with rows")
    func rowIsTwoWords() throws {
        #expect(MemoryLayout<Movie>.size == 2 * MemoryLayout<Int>.size)
    }

}
