/// The faces in one image: the object `visage detect --json` prints per image and `POST /v1/faces` answers.
public struct FacesRecord: Codable, Sendable, Equatable {
    /// The image as the caller named it: the path as given on the command line, or the upload's name.
    public var image: String
    /// The upright picture's size in pixels.
    public var width: Int
    public var height: Int
    /// Most confident first, as the detector reports them. Empty when there is no face.
    public var faces: [FaceRecord]
    /// Milliseconds per pipeline stage, in pipeline order; present when the caller asked for them (the service always does).
    public var timings: [StageTiming]?

    public init(image: String, width: Int, height: Int, faces: [FaceRecord], timings: [StageTiming]? = nil) {
        self.image = image
        self.width = width
        self.height = height
        self.faces = faces
        self.timings = timings
    }
}

/// How long one stage took.
public struct StageTiming: Codable, Sendable, Equatable {
    public var stage: String
    public var milliseconds: Double

    public init(stage: String, milliseconds: Double) {
        self.stage = stage
        self.milliseconds = milliseconds
    }
}
