/// The user's script turned into physical motion: every gesture's times and offsets, and the system
/// events (memory warnings, relaunches), computed once from the scenario before the run.
package struct GestureTimeline {
    /// One finger gesture: a drag (released still) or a fling (released moving, then coasting to rest).
    package struct Gesture {
        /// When the finger touches down, in virtual microseconds.
        package let start: Int64
        /// When the finger lifts.
        package let release: Int64
        /// When the motion ends (equal to `release` for a drag).
        package let end: Int64
        /// Offset at touch-down.
        package let fromOffset: Double
        /// Offset at release.
        package let releaseOffset: Double
        /// Offset at rest.
        package let restOffset: Double
        /// Release velocity in points per millisecond (0 for a drag).
        package let velocity: Double
        /// Offsets the finger passes through before `releaseOffset`, for a drag that changes direction.
        package var waypoints: [Double] = []

        /// The path's `index`-th point: `fromOffset`, then the waypoints, then `releaseOffset`.
        private func pathPoint(_ index: Int) -> Double {
            index == 0 ? fromOffset : index <= waypoints.count ? waypoints[index - 1] : releaseOffset
        }

        /// Whether the scroll view coasts after release.
        package var decelerates: Bool { end > release }

        /// The physical offset at a time within the gesture.
        package func offset(at time: Int64) -> Double {
            if time <= start { return fromOffset }
            if time < release {
                // Equal time on each leg of the path from, waypoints…, release.
                let points = waypoints.count + 2
                let progress = Double(time - start) / Double(release - start) * Double(points - 1)
                let leg = min(points - 2, Int(progress.rounded(.down)))
                let within = progress - Double(leg)
                return pathPoint(leg) + (pathPoint(leg + 1) - pathPoint(leg)) * within
            }
            if time >= end { return restOffset }
            let milliseconds = Double(time - release) / 1000
            let coasted =
                releaseOffset + ScrollPhysics.coastOffset(velocity: velocity, afterMilliseconds: milliseconds)
            return velocity > 0 ? min(coasted, restOffset) : max(coasted, restOffset)
        }
    }

    /// Something the system does at a moment of the script.
    package enum SystemEvent: Equatable {
        case memoryWarning
        case relaunch
    }

    /// How long after the scenario's end a run may go on finishing its work, simulated or live: then it is
    /// cut, and says so.
    package static let settleAllowance: Int64 = 600_000_000

    /// The gestures, in time order.
    package private(set) var gestures: [Gesture] = []
    /// The system events with their times, in order.
    package private(set) var systemEvents: [(time: Int64, event: SystemEvent)] = []
    /// Every offset at which the table comes to rest: launch, after each gesture, after each relaunch.
    package private(set) var restOffsets: [Double] = [0]
    /// When the script ends.
    package private(set) var endTime: Int64 = 0

    /// Computes the motion of a scenario on a table of `rows` rows of `rowHeight` in a `viewport`.
    package init(actions: [ScenarioAction], rows: Int, rowHeight: Double, viewport: Double) {
        let maxOffset = max(0, Double(rows) * rowHeight - viewport)
        var time: Int64 = 0
        var offset = 0.0
        func target(_ row: Int) -> Double { min(max(0, Double(row) * rowHeight), maxOffset) }
        for action in actions {
            switch action {
            case .wait(let micros):
                time += micros
            case .drag(let row, let micros):
                let destination = target(row)
                gestures.append(
                    Gesture(
                        start: time, release: time + micros, end: time + micros, fromOffset: offset,
                        releaseOffset: destination, restOffset: destination, velocity: 0))
                time += micros
                offset = destination
                restOffsets.append(offset)
            case .dragThrough(let rows, let micros):
                let destinations = rows.map(target)
                var gesture = Gesture(
                    start: time, release: time + micros, end: time + micros, fromOffset: offset,
                    releaseOffset: destinations.last ?? offset, restOffset: destinations.last ?? offset,
                    velocity: 0)
                gesture.waypoints = Array(destinations.dropLast())
                gestures.append(gesture)
                time += micros
                offset = gesture.restOffset
                restOffsets.append(offset)
            case .fling(let row):
                let destination = target(row)
                guard destination != offset else { continue }
                let velocity = ScrollPhysics.flickVelocity(distance: destination - offset)
                let flickDistance = velocity * Double(ScrollPhysics.flickMicroseconds) / 1000
                let coastMicros = Int64(
                    (ScrollPhysics.coastMilliseconds(velocity: velocity) * 1000).rounded(.up))
                let release = time + ScrollPhysics.flickMicroseconds
                gestures.append(
                    Gesture(
                        start: time, release: release, end: release + coastMicros, fromOffset: offset,
                        releaseOffset: offset + flickDistance, restOffset: destination, velocity: velocity))
                time = release + coastMicros
                offset = destination
                restOffsets.append(offset)
            case .memoryWarning:
                systemEvents.append((time, .memoryWarning))
            case .relaunch:
                systemEvents.append((time, .relaunch))
                offset = 0
                restOffsets.append(offset)
            }
        }
        endTime = time
    }
}

extension GestureTimeline {
    /// The rows a viewport `viewport` points high shows at a content offset: every row with a point on
    /// screen, nil for an empty table.
    package static func visibleRows(at offset: Double, rowHeight: Double, viewport: Double, rowCount: Int)
        -> ClosedRange<Int>?
    {
        let first = max(0, Int((offset / rowHeight).rounded(.down)))
        let last = min(rowCount - 1, Int(((offset + viewport) / rowHeight).rounded(.up)) - 1)
        return first <= last ? first...last : nil
    }
}
