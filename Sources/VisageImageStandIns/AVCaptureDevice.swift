/// AVFoundation's `AVCaptureDevice`, reduced to its `Position`, so camera-orientation code from Google's
/// ML Kit guide compiles unchanged. Linux has no capture devices: there is nothing else here.
public final class AVCaptureDevice: Sendable {
    /// Which side of the device a camera faces, with AVFoundation's raw values.
    public enum Position: Int, Sendable, Hashable, CaseIterable {
        case unspecified = 0
        case back = 1
        case front = 2
    }

    private init() {}
}
