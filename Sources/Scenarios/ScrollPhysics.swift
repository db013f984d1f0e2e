import Foundation

/// UIKit-like scrolling: a finger drag moves the offset under the finger; on release the offset keeps
/// going at the release velocity, which decays by 0.998 every millisecond (UIKit's normal deceleration
/// rate) until it falls below `stopVelocity`, where the scroll view comes to rest.
package enum ScrollPhysics {
    /// UIKit's normal deceleration rate: velocity is multiplied by this every millisecond.
    package static let decelerationRate = 0.998
    /// Below this speed (points per millisecond) deceleration ends.
    package static let stopVelocity = 0.005
    /// How long a flick's finger contact lasts before release, in microseconds.
    package static let flickMicroseconds: Int64 = 100_000

    /// −ln(rate): the decay constant per millisecond.
    static let decay = -log(decelerationRate)

    /// Distance travelled after release until rest, for a release velocity in points per millisecond.
    static func coastDistance(velocity: Double) -> Double {
        let speed = abs(velocity)
        guard speed > stopVelocity else { return 0 }
        return (speed - stopVelocity) / decay * (velocity < 0 ? -1 : 1)
    }

    /// Milliseconds from release until rest.
    static func coastMilliseconds(velocity: Double) -> Double {
        let speed = abs(velocity)
        guard speed > stopVelocity else { return 0 }
        return log(stopVelocity / speed) / log(decelerationRate)
    }

    /// Distance travelled `milliseconds` after release.
    static func coastOffset(velocity: Double, afterMilliseconds milliseconds: Double) -> Double {
        velocity * (1 - pow(decelerationRate, milliseconds)) / decay
    }

    /// The release velocity (points per ms) of a flick whose finger moves at that velocity for
    /// `flickMicroseconds` and whose coast then ends exactly `distance` points from where it began.
    static func flickVelocity(distance: Double) -> Double {
        guard abs(distance) > 0 else { return 0 }
        let flickMilliseconds = Double(flickMicroseconds) / 1000
        let speed = (abs(distance) + stopVelocity / decay) / (flickMilliseconds + 1 / decay)
        return distance < 0 ? -speed : speed
    }
}
