// swift-tools-version:6.0
import PackageDescription

// Data flows one way: bytes → VisageImage → tensors (VisageNN) → observations (Visage).
// Each module has one job; ARCHITECTURE.md is the map.
let package = Package(
    name: "Visage",
    platforms: [.macOS(.v14)],
    products: [
        .library(name: "Visage", targets: ["Visage"]),
        .executable(name: "visage", targets: ["visage"]),
        // Stand-ins for the UIKit, Core Graphics, Core Image and ImageIO types iOS face code passes around.
        .library(name: "VisageImageStandIns", targets: ["VisageImageStandIns"]),
        .library(name: "VisageMLKit", targets: ["VisageMLKit"]),
        .library(name: "VisageFirebase", targets: ["VisageFirebase"]),
        .library(name: "VisageARKit", targets: ["VisageARKit"]),
        // Vision's VN classes and iOS 18 names over Visage: iOS code ports by changing its import.
        .library(name: "VisageVision", targets: ["VisageVision"]),
        // `visage serve` as a library: the HTTP and WebSocket service, for embedding in another process.
        .library(name: "VisageService", targets: ["VisageService"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        // The service only (VisageService): HTTP and WebSocket server, graceful shutdown, logs, Prometheus metrics.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket", from: "2.8.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        // Tests only: reads the service's OpenAPI document, which every response is checked against.
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
    ],
    targets: [
        // System codecs. Headers and link flags come from pkg-config.
        .systemLibrary(
            name: "CLibJPEG", pkgConfig: "libjpeg",
            providers: [.apt(["libjpeg62-turbo-dev"]), .brew(["jpeg-turbo"])]),
        // libjpeg's API behind setjmp: the only place a longjmp can happen, and it stays in C.
        .target(name: "CJPEG", dependencies: ["CLibJPEG"]),
        .systemLibrary(
            name: "CLibPNG", pkgConfig: "libpng16",
            providers: [.apt(["libpng-dev"]), .brew(["libpng"])]),
        // libpng's read API behind setjmp, with its chunk, size and cache limits set.
        .target(name: "CPNG", dependencies: ["CLibPNG"]),

        // libwebp, libheif, libavif and libtiff loaded at run time with dlopen: the build needs none of their
        // headers, and a machine without one still decodes every other format (ARCHITECTURE.md, Decisions).
        .target(name: "CImageCodecs", linkerSettings: [.linkedLibrary("dl", .when(platforms: [.linux]))]),

        // SIMD microkernels with runtime CPU dispatch; the only C Visage writes.
        .target(name: "CVisageKernels", exclude: ["README.md", "crosscheck"]),

        // Normalized and pixel coordinates, orientation. No dependencies.
        .target(name: "VisageGeometry"),
        // Pixel buffers, decode/encode, EXIF orientation, resize, warp to tensor.
        .target(name: "VisageImage", dependencies: ["VisageGeometry", "CJPEG", "CLibPNG", "CPNG", "CImageCodecs", "CVisageKernels"]),
        // TFLite reader, planner, operators, interpreter. Sees tensors, never faces.
        .target(name: "VisageNN", dependencies: ["CVisageKernels"]),
        // Vision-style contour detection on any image.
        .target(name: "VisageContours", dependencies: ["VisageGeometry", "VisageImage"]),
        // Frame sources: image folders, y4m, raw RGB, ffmpeg. Knows nothing of faces.
        .target(name: "VisageVideo", dependencies: ["VisageImage"]),
        // The bundled MediaPipe models as resources, verified on load.
        .target(
            name: "VisageModels", path: "Models",
            exclude: ["NOTICE"],
            sources: ["BundledModel.swift", "ModelLocation.swift", "SHA256.swift"],
            resources: [
                .copy("face_detection_short_range.tflite"),
                .copy("face_detection_full_range.tflite"),
                .copy("face_detection_full_range_sparse.tflite"),
                .copy("face_landmarks_detector.tflite"),
                .copy("face_blendshapes.tflite"),
                .copy("geometry_pipeline_metadata_landmarks.binarypb"),
            ]),
        // The public API: requests, observations, the face pipeline.
        .target(
            name: "Visage",
            dependencies: ["VisageGeometry", "VisageImage", "VisageNN", "VisageContours", "VisageModels", "VisageVideo"]),
        // UIImage, CGImage, CIImage, CGImagePropertyOrientation, CGPath: thin wrappers of Image for the
        // iOS compatibility modules (VisageVision, VisageMLKit), so ported code compiles unchanged.
        .target(name: "VisageImageStandIns", dependencies: ["VisageGeometry", "VisageImage"]),
        // ML Kit's face detection API over Visage's FaceDetector (ML Kit's names only).
        .target(name: "VisageMLKit", dependencies: ["Visage", "VisageImageStandIns"]),
        // Firebase ML Vision's face API (VisionFaceDetector, VisionFace, NSNumber points) over VisageMLKit.
        .target(name: "VisageFirebase", dependencies: ["VisageMLKit", "VisageImageStandIns"]),
        // ARKit's face-tracking session over Visage's tracker and a video input (ARKit's names only).
        .target(name: "VisageARKit", dependencies: ["Visage", "VisageModels"]),
        // Vision's classic VN API and its iOS 18 names (CGFloat coordinates) over Visage's requests.
        .target(name: "VisageVision", dependencies: ["Visage", "VisageImageStandIns"]),
        // `visage serve`: Hummingbird 2 routes, limits, admission control, metrics, WebSocket tracking, the page's files.
        .target(
            name: "VisageService",
            dependencies: [
                "Visage",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            resources: [.copy("Resources/Web"), .copy("Resources/openapi.yaml"), .copy("Resources/docs.html")]),
        // The command-line tool.
        .executableTarget(
            name: "visage",
            dependencies: ["Visage", "VisageService", .product(name: "ArgumentParser", package: "swift-argument-parser")]),

        .testTarget(name: "VisageGeometryTests", dependencies: ["VisageGeometry"]),
        .testTarget(
            name: "VisageImageTests", dependencies: ["VisageImage", "VisageGeometry"],
            resources: [.copy("Fixtures")]),
        .testTarget(
            name: "VisageNNTests", dependencies: ["VisageNN", "VisageModels"],
            resources: [.copy("Fixtures")]),
        .testTarget(
            name: "VisageContoursTests", dependencies: ["VisageContours", "VisageGeometry", "VisageImage"],
            resources: [.copy("Fixtures")]),
        .testTarget(
            name: "VisageTests", dependencies: ["Visage", "VisageImage", "VisageModels", "VisageNN", "VisageVideo"],
            resources: [.copy("Fixtures")]),
        .testTarget(name: "VisageVideoTests", dependencies: ["VisageVideo", "VisageImage"], resources: [.copy("Fixtures")]),
        .testTarget(name: "VisageCLITests", dependencies: ["visage", "Visage"]),
        .testTarget(name: "VisageVisionTests", dependencies: ["VisageVision", "Visage"], exclude: ["Snippets/README.md"]),
        .testTarget(
            name: "VisageServiceTests",
            dependencies: [
                "VisageService", "Visage", "VisageNN", "visage",
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "HummingbirdWSTesting", package: "hummingbird-websocket"),
                .product(name: "HummingbirdWSClient", package: "hummingbird-websocket"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Yams", package: "Yams"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
            ]),
        .testTarget(name: "VisageImageStandInsTests", dependencies: ["VisageImageStandIns", "VisageGeometry", "VisageImage"]),
        .testTarget(name: "VisageMLKitTests", dependencies: ["VisageMLKit", "Visage"]),
        .testTarget(name: "VisageFirebaseTests", dependencies: ["VisageFirebase", "VisageMLKit", "Visage"]),
        .testTarget(name: "VisageARKitTests", dependencies: ["VisageARKit", "Visage"], resources: [.copy("Fixtures")]),
    ]
)
