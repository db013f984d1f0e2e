import Foundation
import Shared
import Testing

@testable import Imaging
@testable import Report
@testable import Runtime
@testable import World

/// The phone's priced picture work on its own: what each decode and filter is charged, and which download
/// a decoded picture is traced to.
extension WorldTests {
    /// Image work with its recorder, and the scheduler the recorder reads the time from (held here, as
    /// the recorder holds it unowned).
    final class Fixture {
        let scheduler = Scheduler()
        let costs = CostModel()
        let recorder: Recorder
        let work: ImageWork

        init() {
            recorder = Recorder(scheduler: scheduler, keepsTrace: true)
            work = ImageWork(costs: costs, recorder: recorder)
        }
    }

    static let png = Data(
        PNGEncoder.encode(Bitmap(width: 40, height: 60, filledWith: RGBA(red: 9, green: 8, blue: 7))))

    /// The virtual cost of each decode the recorder traced, in order.
    static func decodeCosts(_ recorder: Recorder) -> [Int64] {
        recorder.trace.compactMap {
            if case .decode(_, _, let micros, _) = $0.kind { return micros }
            return nil
        }
    }

    @Test("Bytes delivered twice are traced to their downloads oldest first, once each; other bytes to none")
    func doubleDeliveriesTracedOldestFirst() throws {
        let fixture = Fixture()
        let work = fixture.work
        work.registerDelivery(Self.png, download: 3)
        work.registerDelivery(Self.png, download: 7)
        let first = try #require(work.decode(Self.png))
        let second = try #require(work.decode(Self.png))
        let third = try #require(work.decode(Self.png))
        #expect([first.downloadID, second.downloadID, third.downloadID] == [3, 7, nil])
        #expect(first.width == 40 && first.height == 60)
    }

    @Test("A full decode costs its pixels; a display-size decode a quarter of them plus its output's pixels")
    func decodeCostsItsPixels() throws {
        let fixture = Fixture()
        let (work, recorder, costs) = (fixture.work, fixture.recorder, fixture.costs)
        _ = try #require(work.decode(Self.png))
        let small = try #require(work.decode(Self.png, fittingPixels: 20, 30))
        #expect(small.width <= 20 && small.height <= 30)
        let pixels = small.width * small.height
        #expect(
            Self.decodeCosts(recorder) == [
                costs.decode(pixels: 40 * 60),
                costs.decode(pixels: 40 * 60) / 4 + costs.decode(pixels: pixels),
            ])
    }

    @Test("Bytes that are not a PNG decode to nothing, charged by their length")
    func nonPNGDecodesToNothing() {
        let fixture = Fixture()
        let (work, recorder, costs) = (fixture.work, fixture.recorder, fixture.costs)
        let junk = Data(repeating: 0x41, count: 500)
        #expect(work.decode(junk) == nil)
        #expect(work.decode(junk, fittingPixels: 10, 10) == nil)
        #expect(
            Self.decodeCosts(recorder) == [
                costs.failedDecode(bytes: 500), costs.failedDecode(bytes: 500),
            ])
        #expect(recorder.metrics.decodes == 2)
    }

    @Test("A filter is charged by its pixels")
    func filterChargedByPixels() {
        let fixture = Fixture()
        let (work, recorder, costs) = (fixture.work, fixture.recorder, fixture.costs)
        work.filter(pixels: 300, intensity: 0.8, sourceURL: "http://posters.test/p/1.png")
        let charged = recorder.trace.compactMap {
            if case .filter(let url, _, let micros) = $0.kind { return (url, micros) }
            return nil
        }
        #expect(charged.map(\.0) == ["http://posters.test/p/1.png"])
        #expect(charged.map(\.1) == [costs.filter(pixels: 300)])
    }

    @Test("A PNG over the cap on pixels is refused from its header, and the trace names the cap")
    func oversizedPNGRefusedFromHeader() {
        let fixture = Fixture()
        let (work, recorder) = (fixture.work, fixture.recorder)
        func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
            let body = Array(type.utf8) + data
            return withUnsafeBytes(of: UInt32(data.count).bigEndian, Array.init) + body
                + withUnsafeBytes(of: CRC32.checksum(body).bigEndian, Array.init)
        }
        // 2048×2048 RGBA, 8 bits: the header alone, which is all the decoder reads before refusing it.
        let header: [UInt8] = [0, 0, 8, 0, 0, 0, 8, 0, 8, 6, 0, 0, 0]
        let png =
            [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", header) + chunk("IEND", [])
        #expect(work.decode(Data(png)) == nil)
        let reasons = recorder.trace.compactMap {
            if case .posterRefused(_, let reason) = $0.kind { return reason }
            return nil
        }
        #expect(reasons.count == 1)
        #expect(reasons.first?.contains("2048×2048 pixels") == true, "\(reasons)")
        #expect(reasons.first?.contains("at most 1024×1024") == true, "\(reasons)")
    }

}
