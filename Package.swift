// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "Stint",
    products: [
        .library(name: "StintCore", targets: ["StintCore"]),
        .library(name: "StintLog", targets: ["StintLog"]),
        .library(name: "StintEngine", targets: ["StintEngine"]),
        .library(name: "StintCLI", targets: ["StintCLI"]),
        .executable(name: "stint", targets: ["stint"]),
    ],
    targets: [
        .systemLibrary(
            name: "CZstd",
            pkgConfig: "libzstd",
            providers: [.apt(["libzstd-dev"])]
        ),
        .systemLibrary(
            name: "CCrypto",
            pkgConfig: "libcrypto",
            providers: [.apt(["libssl-dev"])]
        ),
        .systemLibrary(
            name: "CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]
        ),
        .target(name: "StintCore"),
        .target(name: "StintLog", dependencies: ["StintCore", "CZstd", "CCrypto"]),
        .target(name: "StintEngine", dependencies: ["StintCore", "StintLog", "CSQLite"]),
        .target(name: "StintCLI", dependencies: ["StintCore", "StintEngine"]),
        .executableTarget(name: "stint", dependencies: ["StintCLI"]),
        .target(name: "ToolSupport", dependencies: ["StintCore"], path: "Tools/ToolSupport"),
        .executableTarget(
            name: "stint-log-stress", dependencies: ["StintLog", "StintCore", "ToolSupport"],
            path: "Tools/stint-log-stress"),
        .executableTarget(
            name: "stint-generate", dependencies: ["StintLog", "StintCore", "ToolSupport"], path: "Tools/generate"),
        .executableTarget(
            name: "stint-bench", dependencies: ["StintLog", "StintCore", "ToolSupport"], path: "Tools/bench",
            exclude: ["bench.py", "ab-commands.sh"]),
        .executableTarget(
            name: "stint-crash-writer", dependencies: ["StintEngine", "StintLog", "StintCore", "ToolSupport"],
            path: "Tools/stint-crash-writer"),
        .executableTarget(
            name: "stint-reliability", dependencies: ["StintEngine", "StintLog", "StintCore", "ToolSupport"],
            path: "Tools/stint-reliability"),
        .executableTarget(
            name: "stint-sim", dependencies: ["StintEngine", "StintLog", "StintCore", "ToolSupport"],
            path: "Tools/stint-sim", exclude: ["README.md"]),
        .executableTarget(
            name: "stint-cli-fuzz", dependencies: ["StintCLI", "StintCore"], path: "Tools/fuzz/cli"),
        .target(name: "TestSupport", dependencies: ["StintCore", "StintLog"], path: "Tests/TestSupport"),
        .testTarget(name: "StintCoreTests", dependencies: ["StintCore", "TestSupport"]),
        .testTarget(name: "StintEngineTests", dependencies: ["StintEngine", "StintLog", "StintCore", "TestSupport"]),
        .testTarget(name: "StintLogTests", dependencies: ["StintLog", "StintCore", "TestSupport"]),
        .testTarget(
            name: "StintCLITests", dependencies: ["StintCLI", "StintEngine", "StintLog", "StintCore", "TestSupport"],
            exclude: ["__Snapshots__"]
        ),
    ],
    swiftLanguageModes: [.v6]
)

for target in package.targets where target.type != .system {
    target.swiftSettings =
        (target.swiftSettings ?? []) + [
            .enableUpcomingFeature("ExistentialAny"),
            .enableUpcomingFeature("InternalImportsByDefault"),
        ]
}
