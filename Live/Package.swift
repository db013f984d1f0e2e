// swift-tools-version:6.0
import PackageDescription

/// The live mode's parts, a package of their own so that a newcomer's `swift build` and `swift test` of the
/// workbook never build them. `LiveServer` is the HTTP/1.1 server on loopback that the live steps download
/// their posters from: it applies a scenario's latency, shared bandwidth, connection limit and faults in
/// the server, since this kernel has no traffic shaping. `LiveTerminal` draws the table off the main thread.
let package = Package(
    name: "WorkbookLive",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "LiveServer", targets: ["LiveServer"]),
        .library(name: "LiveTerminal", targets: ["LiveTerminal"]),
    ],
    targets: [
        .target(name: "LiveServer"),
        .testTarget(name: "LiveServerTests", dependencies: ["LiveServer"]),
        .target(name: "LiveTerminal"),
        .testTarget(name: "LiveTerminalTests", dependencies: ["LiveTerminal"]),
    ],
    swiftLanguageModes: [.v6]
)
