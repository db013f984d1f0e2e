/// The one place code finds its device through the calling thread instead of being handed it, and the
/// one place a host is seen as a kind of device.
///
/// What the simulator makes is handed its device where it is made: the phone's network, disk and main
/// queue get the phone in their `init`, and a table gets the host of the controller that owns it. What the
/// app's own code makes cannot be handed it, since the articles' API has no device to pass
/// (`Network.shared`, `Image(data:)`, `OperationQueue()`, a `ListViewController()` built by a step): those
/// few entry points look the device up here, from the simulated thread that calls them, which the device
/// was handed when it started the thread (`SimulatedThread.host`). The layers above `Runtime` see the
/// device through protocols of their own (`UIKitHost`, `RecordingHost`, `WorldHost`), so the lookup is
/// generic: `Scripts/check-host-lookup` fails when any other file casts to a host.
extension SimulatedThread {
    /// The host of the app whose simulated thread calls this (nil outside an app).
    package static var currentHost: (any AppHost)? { current?.host }

    /// The host of the app whose simulated thread calls this, as the kind of device `kind` names: nil
    /// outside an app, or when its device is not one (a device that draws no screen is no `UIKitHost`).
    package static func currentHost<Device>(as kind: Device.Type) -> Device? { currentHost?.device(as: kind) }
}

extension AppHost {
    /// This host as the kind of device `kind` names (a protocol of a higher layer, or the phone itself):
    /// nil when it is not one.
    package func device<Device>(as kind: Device.Type) -> Device? { self as? Device }
}
