// swift-tools-version:6.2
import PackageDescription

/// The course's steps, in order: each is a folder `Sources/<name>` and an executable of that name. To add a
/// step, copy a step folder and add its name here (see "Adding a step" in Walkthrough.md); `Compare`, the
/// tests and `Course` find it from there.
let steps = [
    "Step1Naive", "Step2Background", "Step3IdleOnly", "Step4CacheAndPrefetch", "Step5Concurrency",
    "Step6ImagePipeline",
]

/// The layers `Shared` is built from, lowest first: each is a module in its own folder `Sources/<name>`
/// that may import only the layers in its `uses`, so the compiler refuses a back edge (README.md draws the
/// graph). `Shared` (`Sources/Shared`) re-exports them, so a step imports only `Shared`.
let layers: [(name: String, uses: [String], resources: [String])] = [
    ("Imaging", [], []),
    ("Files", [], []),
    ("Text", ["Imaging"], []),
    ("Values", [], []),
    ("Catalog", ["Files"], ["Resources/movies.plist"]),
    ("Runtime", [], []),
    ("Concurrency", ["Runtime", "Values"], []),
    ("Scenarios", ["Imaging", "Files"], ["Resources/Scenarios"]),
    ("Posters", ["Imaging", "Files"], []),
    ("UI", ["Imaging", "Values", "Runtime", "Scenarios", "Posters"], []),
    ("Report", ["Imaging", "Files", "Text", "Runtime"], []),
    (
        "World",
        [
            "Imaging", "Files", "Values", "Catalog", "Runtime", "Scenarios", "Posters", "UI", "Report",
            "Concurrency",
        ],
        []
    ),
    ("Pictures", ["Imaging", "Files", "Text", "Report"], ["Resources/Unifont"]),
    ("CLI", ["Files", "Catalog", "Scenarios", "Posters", "UI", "Report", "World", "Pictures"], []),
]

/// What a module that imports `Shared` depends on: `Shared` and, named too, the layers it re-exports, so
/// that an incremental build recompiles the module when a layer changes (a change to a layer's class
/// layout leaves `Shared`'s own module file as it was).
let usesShared: [Target.Dependency] = ["Shared"] + layers.map { .target(name: $0.name) }

let package = Package(
    name: "ImageLoadingWorkbook",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "Shared", targets: ["Shared"])
    ]
        + steps.map { .executable(name: $0, targets: [$0]) }
        + [
            .executable(name: "Compare", targets: ["Compare"]),
            .executable(name: "Course", targets: ["Course"]),
        ],
    targets: layers.map { layer in
        .target(
            name: layer.name, dependencies: layer.uses.map { .target(name: $0) },
            resources: layer.resources.map { .copy($0) })
    }
        + [.target(name: "Shared", dependencies: layers.map { .target(name: $0.name) })]
        + steps.map { .executableTarget(name: $0, dependencies: usesShared) }
        + [
            .target(name: "Spawn"),
            // Every name a step may use, compiled here and in Live (Sources/StepAPIProbe).
            .target(name: "StepAPIProbe", dependencies: usesShared),
            .executableTarget(name: "Compare", dependencies: usesShared + ["Spawn"]),
            .executableTarget(name: "Course", dependencies: usesShared + ["Spawn"]),
            .target(name: "TestSupport", dependencies: ["Report"], path: "Tests/TestSupport"),
            .testTarget(
                name: "SharedTests",
                dependencies: ["Shared", "TestSupport"] + layers.map { .target(name: $0.name) },
                exclude: ["Fixtures/check_encoder.py"], resources: [.copy("Fixtures")]),
            .testTarget(
                name: "StepTests",
                dependencies: ["Shared", "Compare", "Course", "Spawn", "TestSupport"]
                    + layers.map { .target(name: $0.name) }
                    + steps.map { .target(name: $0) }
            ),
        ],
    swiftLanguageModes: [.v6]
)
