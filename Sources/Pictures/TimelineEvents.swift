import Report

/// A run's trace paired up into what the timeline draws: spans with a start and an end, and moments.
struct TimelineEvents {
    /// A stretch of virtual time, in microseconds.
    struct Span: Equatable {
        var start: Int64
        var end: Int64
    }

    /// One stretch of the table's scroll state.
    struct ScrollSegment {
        /// `dragging`, `decelerating` or `idle`.
        let state: String
        /// When the state held.
        let span: Span
    }

    /// One scroll stop: from the moment the table came to rest until its rows filled (or it was left).
    struct Stop {
        /// From rest to filled (or to the moment it was given up).
        let span: Span
        /// Whether every visible row showed its final content before the next drag.
        let filled: Bool
    }

    /// One network transfer, from its request to its end.
    struct Transfer {
        let url: String
        /// The thread that asked for it.
        let thread: String
        /// When it was requested.
        let start: Int64
        /// When the answer began to arrive (after queueing and latency), if it did.
        var response: Int64?
        /// When it ended, was cancelled or the run ended.
        var end: Int64
        /// The HTTP status (0 for a timeout or a dropped connection), nil when it never ended.
        var status: Int?
        /// Body bytes moved.
        var bytes: Int
        /// Whether it was cancelled.
        var cancelled: Bool
        /// Whether it ended in a failure (a status other than 200).
        var failed: Bool { !cancelled && status != nil && status != 200 }
    }

    /// What kind of work a thread did.
    enum WorkKind: String, CaseIterable {
        /// Decoding PNG bytes.
        case decode
        /// The sepia filter.
        case filter
        /// Reading a file.
        case diskRead = "disk_read"
        /// Writing a file.
        case diskWrite = "disk_write"
    }

    /// A piece of work on one thread.
    struct Work {
        /// The thread's name.
        let thread: String
        let kind: WorkKind
        let span: Span
    }

    /// How a row's wait for its poster ended.
    enum WaitOutcome: String {
        /// The poster appeared.
        case poster
        /// The failure image appeared.
        case failed
        /// The row left the screen (or the app was relaunched) first.
        case abandoned
        /// The run ended first.
        case unfinished
    }

    /// One visible row showing the placeholder, until it showed something else or left the screen.
    struct RowWait {
        let row: Int
        /// When the placeholder came on screen and when the wait ended.
        let span: Span
        /// How it ended.
        let outcome: WaitOutcome
    }

    /// How long the run lasted.
    var duration: Int64 = 0
    /// The scroll state over time, idle stretches included.
    var scroll: [ScrollSegment] = []
    /// Every scroll stop, filled or not.
    var stops: [Stop] = []
    /// The main thread's busy spans.
    var mainBusy: [Span] = []
    /// Each hitch: when it was found (the frame's end) and how late the frame was.
    var hitches: [(time: Int64, micros: Int64)] = []
    /// Every operation's run on a worker thread.
    var operations: [(thread: String, span: Span, cancelled: Bool)] = []
    /// Decode, filter and disk work, on any thread.
    var work: [Work] = []
    /// Every network transfer, in request order.
    var transfers: [Transfer] = []
    /// Every wait of a visible row for its poster.
    var waits: [RowWait] = []
    /// Moments of memory warnings.
    var memoryWarnings: [Int64] = []
    /// When the app relaunched, in virtual microseconds.
    var relaunches: [Int64] = []
    /// Moments a cell showed another row's picture.
    var wrongImages: [Int64] = []
    /// Moments completion work ran for a cancelled operation or a reused cell.
    var lateCompletions: [Int64] = []
    /// The worker threads seen, queue by queue, in worker order.
    var workerThreads: [String] = []

    /// Pairs up the trace of a run.
    init(_ result: RunResult) {
        duration = max(result.virtualMicroseconds, result.trace.last?.time ?? 0)
        var scrollState = "idle"
        var scrollSince: Int64 = 0
        var openTransfers: [String: [Int]] = [:]
        var openOperations: [String: Int64] = [:]
        var openWaits: [Int: Int64] = [:]
        var threads: Set<String> = []

        func closeWaits(where shouldClose: (Int) -> Bool, at time: Int64, outcome: WaitOutcome) {
            for row in openWaits.keys.sorted() where shouldClose(row) {
                if let start = openWaits.removeValue(forKey: row) {
                    waits.append(RowWait(row: row, span: Span(start: start, end: time), outcome: outcome))
                }
            }
        }

        func addWork(_ kind: WorkKind, thread: String, micros: Int64, at time: Int64) {
            // Durations as the trace file has them, so a picture drawn from the file would match.
            let micros = TraceEvent.asWritten(micros)
            // Disk writes are reported when they finish; the others when they begin.
            let span =
                kind == .diskWrite
                ? Span(start: time - micros, end: time) : Span(start: time, end: time + micros)
            work.append(Work(thread: thread, kind: kind, span: span))
        }
        func transferEnded(url: String, at time: Int64, bytes: Int, status: Int?) {
            guard var open = openTransfers[url], !open.isEmpty else { return }
            let index = open.removeFirst()
            openTransfers[url] = open
            transfers[index].end = time
            transfers[index].bytes = bytes
            transfers[index].cancelled = status == nil
            transfers[index].status = status ?? 0
        }

        for event in result.trace {
            let time = event.time
            if let thread = event.kind.thread, thread != "main" { threads.insert(thread) }
            switch event.kind {
            case .scrollState(let state):
                if time > scrollSince {
                    scroll.append(
                        ScrollSegment(state: scrollState, span: Span(start: scrollSince, end: time)))
                }
                scrollState = state.rawValue
                scrollSince = time
            case .stopFilled(let micros, _), .stopUnfilled(let micros, _):
                let wait = TraceEvent.asWritten(micros)
                let filled = if case .stopFilled = event.kind { true } else { false }
                stops.append(Stop(span: Span(start: time - wait, end: time), filled: filled))
            case .mainBusy(_, let start):
                mainBusy.append(Span(start: start, end: time))
            case .hitch(let micros, _):
                hitches.append((time, TraceEvent.asWritten(micros)))
            case .operationStart(_, let thread):
                openOperations[thread] = time
            case .operationEnd(_, let thread, let cancelled):
                if let start = openOperations.removeValue(forKey: thread) {
                    operations.append((thread, Span(start: start, end: time), cancelled))
                }
            case .decode(_, let thread, let micros, _):
                addWork(.decode, thread: thread, micros: micros, at: time)
            case .filter(_, let thread, let micros):
                addWork(.filter, thread: thread, micros: micros, at: time)
            case .diskRead(_, _, let thread, let micros):
                addWork(.diskRead, thread: thread, micros: micros, at: time)
            case .diskWrite(_, _, let thread, let micros):
                addWork(.diskWrite, thread: thread, micros: micros, at: time)
            case .requestStart(let url, let thread):
                openTransfers[url, default: []].append(transfers.count)
                transfers.append(
                    Transfer(
                        url: url, thread: thread, start: time, response: nil, end: time, status: nil,
                        bytes: 0, cancelled: false))
            case .requestResponse(let url, _, _):
                if let index = openTransfers[url]?.first(where: { transfers[$0].response == nil }) {
                    transfers[index].response = time
                }
            case .requestEnd(let url, let status, let bytes):
                transferEnded(url: url, at: time, bytes: bytes, status: status)
            case .requestCancel(let url, let bytes):
                transferEnded(url: url, at: time, bytes: bytes, status: nil)
            case .cellImage(let row, let shows, _, _):
                if shows == "placeholder" {
                    if openWaits[row] == nil { openWaits[row] = time }
                } else if let start = openWaits.removeValue(forKey: row) {
                    let outcome: WaitOutcome = shows == "failed" ? .failed : .poster
                    waits.append(RowWait(row: row, span: Span(start: start, end: time), outcome: outcome))
                }
            case .visibleRows(let first, let last):
                closeWaits(where: { $0 < first || $0 > last }, at: time, outcome: .abandoned)
            case .memoryWarning:
                memoryWarnings.append(time)
            case .relaunch:
                relaunches.append(time)
                closeWaits(where: { _ in true }, at: time, outcome: .abandoned)
            case .wrongImage:
                wrongImages.append(time)
            case .lateCompletion:
                lateCompletions.append(time)
            default:
                break
            }
        }
        if duration > scrollSince {
            scroll.append(ScrollSegment(state: scrollState, span: Span(start: scrollSince, end: duration)))
        }
        for index in transfers.indices where transfers[index].status == nil {
            transfers[index].end = duration
        }
        closeWaits(where: { _ in true }, at: duration, outcome: .unfinished)
        waits.sort { ($0.span.start, $0.row) < ($1.span.start, $1.row) }
        workerThreads = threads.sorted(by: Self.threadOrder)
    }

    /// Orders thread names by queue name, then by worker number (`queue-2` before `queue-10`).
    static func threadOrder(_ left: String, _ right: String) -> Bool {
        let (leftQueue, leftNumber) = splitThreadName(left)
        let (rightQueue, rightNumber) = splitThreadName(right)
        if leftQueue != rightQueue { return leftQueue < rightQueue }
        return leftNumber < rightNumber
    }

    /// A worker thread's queue and number: `download-queue-3` is (`download-queue`, 3).
    static func splitThreadName(_ name: String) -> (queue: String, number: Int) {
        guard let dash = name.lastIndex(of: "-"), let number = Int(name[name.index(after: dash)...]) else {
            return (name, 0)
        }
        return (String(name[..<dash]), number)
    }
}

extension TraceEvent.Kind {
    /// The thread the event happened on, for events that name one.
    var thread: String? {
        switch self {
        case .requestStart(_, let thread), .decode(_, let thread, _, _), .filter(_, let thread, _),
            .diskRead(_, _, let thread, _), .diskWrite(_, _, let thread, _),
            .diskWriteFailed(_, _, let thread),
            .operationStart(_, let thread), .operationEnd(_, let thread, _):
            return thread
        default:
            return nil
        }
    }
}
