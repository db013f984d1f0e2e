// swift-tools-version:6.0
import PackageDescription

/// The live mode's parts, a package of their own so that a newcomer's `swift build` and `swift test` of the
/// workbook never build them. `LiveServer` is the HTTP/1.1 server on loopback that the live steps download
/// their posters from: it applies a scenario's latency, shared bandwidth, connection limit and faults in
/// the server, since this kernel has no traffic shaping. `LiveTerminal` draws the table off the main thread;
/// `LiveTerminalFixture` draws a known frame of it, which its tests read back from tmux. `LiveLock` is the
/// `Mutex` they all share, one ThreadSanitizer can see.
///
/// The step targets are the workbook's own step folders (`Sources/Step1Naive` and the rest are relative
/// symlinks to `../../Sources/…`), built against a `Shared` that re-exports Foundation's own `Operation`,
/// `OperationQueue`, `BlockOperation` and `Thread`, with the workbook's layers that need no simulated
/// runtime (`Imaging`, `Files`, `Text`, `Values`, `Catalog`, `Scenarios`, `Posters`) linked the same way: building them
/// checks that the step sources compile against real Foundation in Swift 6 mode. Running one plays a
/// scenario live (`swift run --package-path Live Step1Naive --scenario course`): the step's app on the
/// real main thread, its posters from `LiveServer`, the table drawn in the terminal when standard output
/// is one (headless otherwise), and a report of what could be measured.
/// The rest of `Shared` is thin twins, some of them not yet live (their comments say which).
/// `LiveStepTests` runs the step executables built beside it.
let liveSteps = [
    "Step1Naive", "Step2Background", "Step3IdleOnly", "Step4CacheAndPrefetch", "Step5Concurrency",
    "Step6ImagePipeline",
]

let package = Package(
    name: "WorkbookLive",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "LiveServer", targets: ["LiveServer"]),
        .library(name: "LiveTerminal", targets: ["LiveTerminal"]),
    ] + liveSteps.map { .executable(name: $0, targets: [$0]) },
    targets: liveSteps.map { .executableTarget(name: $0, dependencies: ["Shared"]) } + [
        // Every name a step may use, as in the workbook's package: the live twins must offer each.
        .target(name: "StepAPIProbe", dependencies: ["Shared"]),
        .target(name: "Imaging"),
        .target(name: "Files"),
        .target(name: "Text", dependencies: ["Imaging"]),
        .target(name: "Values"),
        .target(name: "Catalog", dependencies: ["Files"], resources: [.copy("Resources/movies.plist")]),
        .target(
            name: "Scenarios", dependencies: ["Imaging", "Files"], resources: [.copy("Resources/Scenarios")]),
        .target(name: "Posters", dependencies: ["Imaging", "Files"]),
        .target(
            name: "Shared",
            dependencies: [
                "Imaging", "Files", "Text", "Values", "Catalog", "Scenarios", "Posters", "LiveLock",
                "LiveServer", "LiveTerminal",
            ]),
        .target(name: "LiveLock"),
        .target(name: "LiveServer", dependencies: ["LiveLock"]),
        .testTarget(name: "LiveServerTests", dependencies: ["LiveServer"]),
        .target(name: "LiveTerminal", dependencies: ["Imaging", "Text", "LiveLock"]),
        .executableTarget(name: "LiveTerminalFixture", dependencies: ["LiveTerminal", "Imaging"]),
        .testTarget(name: "LiveTerminalTests", dependencies: ["LiveTerminal", "Imaging", "Text"]),
        .testTarget(name: "LiveStepTests"),
    ],
    swiftLanguageModes: [.v6]
)
