import Foundation
import Shared
import Testing

@testable import Catalog
@testable import Pictures

/// A cell that shows another row's poster is marked in `--screens` and in the exported screen PNGs.
extension StepPartsTests {
    @Test("Without cancel on reuse, mix-up ends with a row showing another row's poster, marked as such")
    func mixUpWithoutCancelShowsWrongPoster() throws {
        let run = try AblationBlocks.result(
            "Step4CacheAndPrefetch --without cancel-on-reuse", scenario: "mix-up")
        #expect(run.metric("wrong_image_events") > 0)
        let movies = try MovieCatalog.bundled().rows(60)
        let wrong = try #require(run.finalScreen.rows.first { $0.wrongPosterOf != nil })
        // The poster is the one rows 13 and 15 share, shown in a row that is neither.
        #expect(![13, 15].contains(wrong.row))
        #expect([movies[13].name, movies[15].name].contains(wrong.wrongPosterOf ?? ""))
        let text = ScreenText.render(run, color: false)
        #expect(text.contains("WRONG PICTURE: the poster of \"\(wrong.wrongPosterOf ?? "")\""))
        // The exported picture frames that row in red, and only that row.
        let picture = ScreenRenderer.render(run.finalScreen, caption: "end")
        for (index, row) in run.finalScreen.rows.enumerated() {
            let top = ScreenRenderer.captionHeight + index * ScreenRenderer.rowHeight
            let corner = picture.pixel(x: 1, y: top + 1)
            #expect((corner == ScreenRenderer.failureRed) == (row.row == wrong.row), "row \(row.row)")
        }
    }

    @Test("With every safeguard on, no row of mix-up is marked")
    func mixUpWithSafeguardsMarksNoRow() throws {
        let run = try SharedRuns.shared.result(.cacheAndPrefetch, "mix-up")
        #expect(run.finalScreen.rows.allSatisfy { $0.wrongPosterOf == nil })
        #expect(!ScreenText.render(run, color: false).contains("WRONG"))
    }

}
