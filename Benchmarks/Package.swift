// swift-tools-version:6.0
import PackageDescription

// The workbook's benchmarks: a package of its own, so the root package stays free of dependencies and
// its CI never builds them. Run everything with `Benchmarks/run` (see README.md).
let package = Package(
    name: "WorkbookBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "ImageLoadingWorkbook", path: "..")
    ],
    targets: [
        .executableTarget(
            name: "WorkbookBenchmarks",
    platforms: [.macOS(.v15)],
            dependencies: [.product(name: "Shared", package: "ImageLoadingWorkbook")]
        )
    ],
    swiftLanguageModes: [.v6]
)
