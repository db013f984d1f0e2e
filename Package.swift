// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "ImageLoadingWorkbook",
    products: [
        .library(name: "Shared", targets: ["Shared"]),
        .executable(name: "Step1Naive", targets: ["Step1Naive"]),
        .executable(name: "Step2Background", targets: ["Step2Background"]),
        .executable(name: "Step3IdleOnly", targets: ["Step3IdleOnly"]),
        .executable(name: "Step4CacheAndPrefetch", targets: ["Step4CacheAndPrefetch"]),
        .executable(name: "Step5Concurrency", targets: ["Step5Concurrency"]),
        .executable(name: "Compare", targets: ["Compare"]),
    ],
    targets: [
        .target(
            name: "Shared",
            resources: [
                .copy("Resources/movies.plist"),
                .copy("Resources/Scenarios"),
            ]
        ),
        .executableTarget(name: "Step1Naive", dependencies: ["Shared"]),
        .executableTarget(name: "Step2Background", dependencies: ["Shared"]),
        .executableTarget(name: "Step3IdleOnly", dependencies: ["Shared"]),
        .executableTarget(name: "Step4CacheAndPrefetch", dependencies: ["Shared"]),
        .executableTarget(name: "Step5Concurrency", dependencies: ["Shared"]),
        .executableTarget(name: "Compare", dependencies: ["Shared"]),
        .testTarget(
            name: "SharedTests", dependencies: ["Shared"], exclude: ["Fixtures/check_encoder.py"],
            resources: [.copy("Fixtures")]),
        .testTarget(
            name: "StepTests",
            dependencies: [
                "Shared", "Step1Naive", "Step2Background", "Step3IdleOnly", "Step4CacheAndPrefetch",
                "Step5Concurrency",
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
