/// ARKit's `ARConfiguration`: what a session tracks.
open class ARConfiguration {
    /// Whether this kind of configuration can run here.
    open class var isSupported: Bool { false }
    /// Kept for source compatibility; Visage estimates no lighting.
    public var isLightEstimationEnabled = true

    public init() {}
}

/// ARKit's `ARFaceTrackingConfiguration`, reading frames from a camera or a video instead of the
/// TrueDepth camera.
///
/// ``videoInput`` is the one line ported code adds:
/// ```swift
/// let configuration = ARFaceTrackingConfiguration()
/// configuration.videoInput = "clip.y4m"        // nil: the default camera
/// session.run(configuration)
/// ```
public final class ARFaceTrackingConfiguration: ARConfiguration {
    /// What to read frames from: a `.y4m` file (read natively), a folder of images, any file or URL
    /// ffmpeg reads, or a camera device such as `/dev/video2` (through ffmpeg's v4l2 input). Nil means
    /// the default camera: `$VISAGE_CAMERA` when set, else `/dev/video0`.
    public var videoInput: String?
    /// Whether the input is a mirror image (a selfie view recorded from a preview). Mirrored frames are
    /// flipped back before analysis, so left and right stay the subject's. A Linux camera device
    /// delivers unmirrored frames: leave it false for them.
    public var isVideoMirrored = false
    /// Most faces tracked at once, 1…``supportedNumberOfTrackedFaces`` (ARKit's default 1).
    public var maximumNumberOfTrackedFaces = 1
    /// Kept for source compatibility; there is no world tracking.
    public var isWorldTrackingEnabled = false

    /// The most faces Visage's tracker follows at once.
    public static var supportedNumberOfTrackedFaces: Int { 16 }
    /// Kept for source compatibility: false, there is no world tracking.
    public static var supportsWorldTracking: Bool { false }

    /// True when the default video source can be opened: `$VISAGE_CAMERA` (or `/dev/video0`) exists
    /// and is readable, and ffmpeg is installed unless it is a `.y4m` file or a folder. A configuration
    /// with its own ``videoInput`` does not need this.
    override public class var isSupported: Bool {
        VideoSourceOpener.canOpen(VideoSourceOpener.defaultCamera)
    }

    override public init() {
        super.init()
    }
}
