import Foundation

/// A debug build runs the C kernels unoptimised, 20–40 times slower than release: say so once, on
/// stderr, before work where that shows (a video, many images), so a slow first run has its reason.
enum DebugBuildWarning {
    /// Image counts from which a batch counts as many.
    static let manyImages = 8

    #if DEBUG
    nonisolated(unsafe) private static var warned = false
    #endif

    /// Warns once per process in a debug build; does nothing in release.
    static func warn(about work: String) {
        #if DEBUG
        guard !warned else { return }
        warned = true
        FileHandle.standardError.write(Data((
            "warning: this is a debug build of visage, 20–40× slower than release for \(work); "
                + "build with `swift run -c release visage …` (or `swift build -c release`)\n").utf8))
        #endif
    }
}
