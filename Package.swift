// swift-tools-version:6.0
import PackageDescription

/// The course's steps, in order: each is a folder `Sources/<name>` and an executable of that name. To add a
/// step, copy a step folder and add its name here (see "Adding a step" in Walkthrough.md); `Compare`, the
/// tests and `Course` find it from there.
let steps = [
    "Step1Naive", "Step2Background", "Step3IdleOnly", "Step4CacheAndPrefetch", "Step5Concurrency",
]

let package = Package(
    name: "ImageLoadingWorkbook",
    products: [
        .library(name: "Shared", targets: ["Shared"])
    ]
        + steps.map { .executable(name: $0, targets: [$0]) }
        + [
            .executable(name: "Compare", targets: ["Compare"]),
            .executable(name: "Course", targets: ["Course"]),
        ],
    targets: [
        .target(
            name: "Shared",
            resources: [
                .copy("Resources/movies.plist"),
                .copy("Resources/Scenarios"),
                .copy("Resources/Unifont"),
            ]
        )
    ]
        + steps.map { .executableTarget(name: $0, dependencies: ["Shared"]) }
        + [
            .executableTarget(name: "Compare", dependencies: ["Shared"]),
            .executableTarget(name: "Course", dependencies: ["Shared"]),
            .testTarget(
                name: "SharedTests", dependencies: ["Shared"], exclude: ["Fixtures/check_encoder.py"],
                resources: [.copy("Fixtures")]),
            .testTarget(
                name: "StepTests",
                dependencies: ["Shared", "Course"] + steps.map { .target(name: $0) }
            ),
        ],
    swiftLanguageModes: [.v6]
)
