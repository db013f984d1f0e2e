import Foundation
import Shared
import TestSupport
import Testing

@testable import Report
@testable import Scenarios

/// What a run's trace says about time on the phone, read back independently of the code that measured
/// it: scroll intervals, late windows, main-thread spans, hangs and stops, as spans of virtual time.
struct TimingTrace {
    /// A span of virtual microseconds.
    struct Span: CustomStringConvertible {
        let start: Int64
        let end: Int64
        var length: Int64 { end - start }
        func overlap(_ other: Span) -> Int64 { max(0, min(end, other.end) - max(start, other.start)) }
        var description: String { "\(start)…\(end)" }
    }

    var intervals: [Span] = []
    var hitches: [Span] = []
    var mainBusy: [Span] = []
    var hangs: [Span] = []
    var filledStops: [Span] = []
    var unfilledStops: [Span] = []

    init(_ result: RunResult) {
        for event in result.trace {
            let start = event.number("start_us").map(Int64.init) ?? event.time
            let span = Span(start: start, end: event.time)
            switch event.name {
            case "scroll_interval": intervals.append(span)
            case "hitch": hitches.append(span)
            case "main_busy": mainBusy.append(span)
            case "hang": hangs.append(span)
            case "stop_filled": filledStops.append(span)
            case "stop_unfilled": unfilledStops.append(span)
            default: break
            }
        }
    }
}

/// Checks every timing invariant of a run against its trace and its scenario's timeline.
///
/// - hitch time ratio ≤ 1000 ms/s and hitch time ≤ scroll time;
/// - late windows do not overlap, each lies inside a scroll interval, and they add up to the hitch time;
/// - every main-thread span of at least two frames that overlaps a scroll interval by two frames or more
///   is covered by a late window (it added a hitch);
/// - hang time ≥ the sum of main-thread spans of 250 ms or more, one hang each;
/// - every stop begins when the table came to rest on the scenario's timeline (or at a launch), once;
///   filled + unfilled stops = stops, and each stop's wait ≥ the main thread's busy time inside it;
/// - a screen is kept for every stop, filled or not, the unfilled ones marked.
func checkTimingInvariants(
    _ result: RunResult, scenario: Scenario, sourceLocation: SourceLocation = #_sourceLocation
) {
    let label = "\(result.step) on \(result.scenario)"
    let metrics = result.metrics
    let trace = TimingTrace(result)
    let period = 1_000_000 / Int64(max(1, scenario.screen.refreshRate))

    // Hitches over scroll intervals.
    #expect(metrics.hitchTimeRatio <= 1000, "\(label): ratio", sourceLocation: sourceLocation)
    #expect(
        metrics.hitchTimeMicroseconds <= metrics.scrollingMicroseconds, "\(label): hitch time > scroll time",
        sourceLocation: sourceLocation)
    #expect(
        trace.intervals.reduce(0) { $0 + $1.length } == metrics.scrollingMicroseconds,
        "\(label): intervals", sourceLocation: sourceLocation)
    #expect(
        trace.hitches.reduce(0) { $0 + $1.length } == metrics.hitchTimeMicroseconds,
        "\(label): hitch windows", sourceLocation: sourceLocation)
    #expect(trace.hitches.count == metrics.hitches, sourceLocation: sourceLocation)
    for (a, b) in zip(trace.intervals, trace.intervals.dropFirst()) {
        #expect(a.end <= b.start, "\(label): intervals \(a) and \(b) overlap", sourceLocation: sourceLocation)
    }
    for (a, b) in zip(trace.hitches, trace.hitches.dropFirst()) {
        #expect(
            a.end <= b.start, "\(label): late windows \(a) and \(b) overlap", sourceLocation: sourceLocation)
    }
    for window in trace.hitches {
        #expect(
            window.length > 0
                && trace.intervals.contains { $0.start <= window.start && window.end <= $0.end },
            "\(label): late window \(window) outside every scroll interval", sourceLocation: sourceLocation)
    }
    for span in trace.mainBusy where span.length >= 2 * period {
        guard trace.intervals.contains(where: { $0.overlap(span) >= 2 * period }) else { continue }
        #expect(
            trace.hitches.contains { $0.start <= span.end && span.end <= $0.end },
            "\(label): main thread busy \(span) during scrolling, no hitch", sourceLocation: sourceLocation)
    }

    // Hangs.
    let long = trace.mainBusy.filter { $0.length >= 250_000 }
    #expect(
        metrics.hangTimeMicroseconds >= long.reduce(0) { $0 + $1.length }, "\(label): hang time",
        sourceLocation: sourceLocation)
    #expect(metrics.hangs == long.count, "\(label): hangs", sourceLocation: sourceLocation)
    #expect(trace.hangs.count == metrics.hangs, sourceLocation: sourceLocation)

    // Stops.
    #expect(trace.unfilledStops.count == metrics.stopsUnfilled, sourceLocation: sourceLocation)
    let stops = trace.filledStops + trace.unfilledStops
    #expect(
        stops.count == metrics.timesToVisibleMicroseconds.count, "\(label): stops",
        sourceLocation: sourceLocation)
    let timeline = GestureTimeline(
        actions: scenario.actions, rows: scenario.rows, rowHeight: Double(scenario.screen.rowHeight),
        viewport: Double(scenario.screen.height))
    let launches = [0] + timeline.systemEvents.filter { $0.event == .relaunch }.map(\.time)
    let starts = timeline.gestures.map(\.start)
    // The table is at rest at each launch and at each gesture's end, unless a finger lands at that moment.
    let rests = (launches + timeline.gestures.map(\.end)).filter { !starts.contains($0) }
    let stopStarts = stops.map(\.start).sorted()
    #expect(
        Set(stopStarts).count == stopStarts.count, "\(label): a stop twice", sourceLocation: sourceLocation)
    #expect(
        stopStarts.allSatisfy(rests.contains), "\(label): a stop that began off the timeline's rests",
        sourceLocation: sourceLocation)
    if launches.count == 1 {
        #expect(
            stopStarts == rests.sorted(), "\(label): stops \(stopStarts) for rests \(rests.sorted())",
            sourceLocation: sourceLocation)
    }
    for stop in stops {
        let blocked = trace.mainBusy.reduce(0) { $0 + $1.overlap(stop) }
        #expect(
            stop.length >= blocked, "\(label): stop \(stop) waits less than blocked",
            sourceLocation: sourceLocation)
        #expect(stop.length > 0, "\(label): an empty stop", sourceLocation: sourceLocation)
    }
    for stop in trace.filledStops {
        // Filled at a presented frame: a vsync, after the commit that put the content on screen.
        let rate = Int64(max(1, scenario.screen.refreshRate))
        let vsync = (stop.end * rate + 999_999) / 1_000_000
        #expect(
            vsync * 1_000_000 / rate == stop.end, "\(label): stop filled off the vsync grid at \(stop.end)",
            sourceLocation: sourceLocation)
    }
    // The screens kept at stops (for --screens and --export): one per stop, the unfilled ones marked.
    #expect(result.stops.count == stops.count, "\(label): stop screens", sourceLocation: sourceLocation)
    #expect(result.stops.filter(\.isUnfilled).count == metrics.stopsUnfilled, sourceLocation: sourceLocation)
    for screen in result.stops {
        let span = screen.stoppedAt.map { TimingTrace.Span(start: $0, end: screen.time) }
        let kind = screen.isUnfilled ? trace.unfilledStops : trace.filledStops
        #expect(
            span.map { span in kind.contains { $0.start == span.start && $0.end == span.end } } == true,
            "\(label): screen \(screen.label) matches no stop", sourceLocation: sourceLocation)
        #expect(screen.label.contains("unfilled") == screen.isUnfilled, sourceLocation: sourceLocation)
    }
    let longest = stops.map(\.length).max() ?? 0
    #expect(metrics.timeToVisible(percentile: 100) == longest, sourceLocation: sourceLocation)
}
