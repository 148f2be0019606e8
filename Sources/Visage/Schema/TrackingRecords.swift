import Foundation

/// A tracked video frame as `visage track --json` prints it and the service's `/v1/track` WebSocket sends it.
public struct TrackingFrameRecord: Codable, Sendable, Equatable {
    /// The source's frame index.
    public var frame: Int
    /// Media time, seconds.
    public var time: Double
    public var faces: [TrackedFaceRecord]
    /// The events this frame completed. The CLI prints events as lines of their own and leaves this out.
    public var events: [TrackingEventRecord]?
    /// Frames dropped since the last processed one because processing fell behind (the service).
    public var skipped: Int?

    public init(frame: Int, time: Double, faces: [TrackedFaceRecord], events: [TrackingEventRecord]? = nil, skipped: Int? = nil) {
        (self.frame, self.time, self.faces, self.events, self.skipped) = (frame, time, faces, events, skipped)
    }

    /// The record of a tracker update; `events` included when `includeEvents`.
    public init(_ update: FaceTrackingUpdate, includeEvents: Bool, skipped: Int? = nil) {
        self.init(
            frame: update.frameIndex, time: update.time, faces: update.faces.map(TrackedFaceRecord.init),
            events: includeEvents ? update.events.map(TrackingEventRecord.init) : nil, skipped: skipped)
    }
}

/// One tracked face in a frame.
public struct TrackedFaceRecord: Codable, Sendable, Equatable {
    /// Kept while the face stays in view (ML Kit's meaning).
    public var trackingID: Int
    /// The box around the face mesh, pixels, origin top left.
    public var frame: FaceRecord.Rect
    /// ARKit's eye-blink coefficients, 0…1, the subject's own eyes.
    public var eyeBlinkLeft: Float
    public var eyeBlinkRight: Float
    /// Each eye's lid aperture in iris diameters (``EyeOpenness``), to 0.01; nil without irises.
    public var eyeOpenness: EyeOpenness?
    /// The mean of ARKit's `mouthSmileLeft` and `mouthSmileRight`, 0…1.
    public var smile: Float
    /// Where the face looks; nil when it cannot be estimated.
    public var gaze: GazeRecord?
    /// Whether the face has attention (its last attentionGained/attentionLost).
    public var attention: Bool?
    /// The fitted head pose, degrees, as ``FaceRecord``'s (ML Kit's Euler angles): the series nods and
    /// shakes are found in.
    public var roll, yaw, pitch: Double?

    public init(
        trackingID: Int, frame: FaceRecord.Rect, eyeBlinkLeft: Float, eyeBlinkRight: Float, smile: Float, gaze: GazeRecord? = nil,
        attention: Bool? = nil, roll: Double? = nil, yaw: Double? = nil, pitch: Double? = nil, eyeOpenness: EyeOpenness? = nil
    ) {
        (self.trackingID, self.frame, self.eyeBlinkLeft, self.eyeBlinkRight, self.smile) =
            (trackingID, frame, eyeBlinkLeft, eyeBlinkRight, smile)
        self.eyeOpenness = eyeOpenness
        (self.gaze, self.attention) = (gaze, attention)
        (self.roll, self.yaw, self.pitch) = (roll, yaw, pitch)
    }

    public init(_ face: TrackedFace) {
        let f = face.frame
        let blendshapes = face.analysis.blendshapes
        self.init(
            trackingID: face.trackingID, frame: .init(x: f.minX, y: f.minY, width: f.width, height: f.height),
            eyeBlinkLeft: face.eyeBlinkLeft, eyeBlinkRight: face.eyeBlinkRight,
            smile: (blendshapes[.mouthSmileLeft] + blendshapes[.mouthSmileRight]) / 2,
            gaze: face.analysis.gaze.map { GazeRecord($0, headAngle: face.analysis.pose.angleFromCamera) }, attention: face.hasAttention)
        let pose = face.analysis.pose
        func round(_ value: Double) -> Double? { value.isFinite ? (value * 100).rounded() / 100 : nil }
        (roll, yaw, pitch) = (round(pose.headEulerAngleZ), round(pose.headEulerAngleY), round(pose.headEulerAngleX))
        if let openness = face.analysis.eyeOpenness, let left = round(openness.left), let right = round(openness.right) {
            eyeOpenness = EyeOpenness(left: left, right: right)
        }
    }
}

/// A tracked face's gaze (``FaceGaze``), degrees.
public struct GazeRecord: Codable, Sendable, Equatable {
    /// The combined line of sight in the camera frame: positive towards the picture's right, and up.
    public var yaw: Double
    public var pitch: Double
    /// Between the line of sight and the direction of the camera.
    public var angleFromCamera: Double
    /// Between where the head points and the direction of the camera (``HeadPose/angleFromCamera``).
    public var headAngleFromCamera: Double
    /// 0…1.
    public var lookingAtCamera: Double
    /// Each eye's line of sight in the head (face space, as ARKit's eye transforms): what MediaPipe's
    /// `eyeLook*` blendshapes measure.
    public var leftEye: EyeAngles?
    public var rightEye: EyeAngles?

    /// Degrees in face space: yaw positive towards the subject's own left, pitch positive up.
    public struct EyeAngles: Codable, Sendable, Equatable {
        public var yaw: Double
        public var pitch: Double
        public init(yaw: Double, pitch: Double) { (self.yaw, self.pitch) = (yaw, pitch) }

        /// The +z axis of ARKit's eye transform (row-major, face space).
        public init(_ eye: EyeGaze) {
            let z = SIMD3(eye.transform[2], eye.transform[6], eye.transform[10])
            self.init(yaw: atan2(z.x, z.z) * 180 / .pi, pitch: asin(max(-1, min(1, z.y))) * 180 / .pi)
        }
    }

    public init(
        yaw: Double, pitch: Double, angleFromCamera: Double, headAngleFromCamera: Double, lookingAtCamera: Double,
        leftEye: EyeAngles? = nil, rightEye: EyeAngles? = nil
    ) {
        (self.yaw, self.pitch, self.angleFromCamera, self.headAngleFromCamera, self.lookingAtCamera) =
            (yaw, pitch, angleFromCamera, headAngleFromCamera, lookingAtCamera)
        (self.leftEye, self.rightEye) = (leftEye, rightEye)
    }

    public init(_ gaze: FaceGaze, headAngle: Double) {
        func round(_ value: Double, _ places: Double = 10) -> Double { (value * places).rounded() / places }
        func rounded(_ eye: EyeGaze) -> EyeAngles {
            let angles = EyeAngles(eye)
            return EyeAngles(yaw: round(angles.yaw), pitch: round(angles.pitch))
        }
        self.init(
            yaw: round(gaze.yaw), pitch: round(gaze.pitch), angleFromCamera: round(gaze.angleFromCamera),
            headAngleFromCamera: headAngle.isFinite ? round(headAngle) : 180, lookingAtCamera: round(gaze.lookingAtCamera, 1000),
            leftEye: rounded(gaze.left), rightEye: rounded(gaze.right))
    }
}

/// One tracking event: `faceDetected`, `noFaceDetected`, `blink` (with `eye` and `trackingID`), `nod` and
/// `shake` (with `trackingID`, `start`, `duration` and `amplitude`), or `attentionGained` and
/// `attentionLost` (with `trackingID` for one face, without for anyone).
public struct TrackingEventRecord: Codable, Sendable, Equatable {
    public var event: String
    /// `left`, `right` or `both`, for blinks.
    public var eye: String?
    /// The face the event is about; nil for presence events.
    public var trackingID: Int?
    /// Media time of the frame that completed the event, seconds.
    public var time: Double
    /// Nods and shakes: media time of the turning point the gesture started from, seconds.
    public var start: Double?
    /// Nods and shakes: seconds from `start` to the turning point that completed the gesture.
    public var duration: Double?
    /// Nods and shakes: half the largest peak-to-peak swing, degrees.
    public var amplitude: Double?

    public init(
        event: String, eye: String? = nil, trackingID: Int? = nil, time: Double, start: Double? = nil, duration: Double? = nil,
        amplitude: Double? = nil
    ) {
        (self.event, self.eye, self.trackingID, self.time) = (event, eye, trackingID, time)
        (self.start, self.duration, self.amplitude) = (start, duration, amplitude)
    }

    public init(_ event: FaceTrackingEvent) {
        switch event.kind {
        case .faceDetected: self.init(event: "faceDetected", time: event.time)
        case .noFaceDetected: self.init(event: "noFaceDetected", time: event.time)
        case .blink(let eye): self.init(event: "blink", eye: eye.rawValue, trackingID: event.trackingID, time: event.time)
        case .attentionGained: self.init(event: "attentionGained", trackingID: event.trackingID, time: event.time)
        case .attentionLost: self.init(event: "attentionLost", trackingID: event.trackingID, time: event.time)
        case .nod(let gesture), .shake(let gesture):
            let name = if case .nod = event.kind { "nod" } else { "shake" }
            self.init(
                event: name, trackingID: event.trackingID, time: event.time, start: gesture.start, duration: gesture.duration,
                amplitude: gesture.amplitude)
        }
    }
}
