/// UIKit's `UIDeviceOrientation`, with UIKit's raw values, so the orientation helpers of Google's ML Kit
/// guide compile unchanged. A Linux program has no device to turn: ``UIDevice/orientation`` is `.unknown`.
public enum UIDeviceOrientation: Int, Sendable, Hashable, CaseIterable {
    case unknown = 0
    case portrait = 1
    case portraitUpsideDown = 2
    case landscapeLeft = 3
    case landscapeRight = 4
    case faceUp = 5
    case faceDown = 6

    public var isPortrait: Bool { self == .portrait || self == .portraitUpsideDown }
    public var isLandscape: Bool { self == .landscapeLeft || self == .landscapeRight }
    public var isFlat: Bool { self == .faceUp || self == .faceDown }
    public var isValidInterfaceOrientation: Bool { isPortrait || isLandscape }
}

/// UIKit's `UIDevice`, reduced to `UIDevice.current.orientation` (always `.unknown` on Linux).
public final class UIDevice: Sendable {
    public static let current = UIDevice()
    public var orientation: UIDeviceOrientation { .unknown }
}
