/// The simulated screen.
public struct ScreenSettings: Sendable, Equatable {
    /// Viewport height in points.
    public var height: Int = 667
    /// Row height in points.
    public var rowHeight: Int = 88
    /// Display refresh rate in hertz: 60 or 120.
    public var refreshRate: Int = 60

    /// The defaults: 667-point viewport, 88-point rows, 60 Hz.
    public init() {}
}
