import VisageGeometry

/// The facial features Vision's `DetectFaceLandmarksRequest` reports, traced on MediaPipe's face mesh.
///
/// Left and right are the subject's (Vision's and ML Kit's convention): `leftEye` is on the picture's
/// right in an unmirrored frontal photo. Each region lists mesh indices (MediaPipe's canonical face mesh)
/// chosen to follow the feature Vision's region follows:
///
/// | region | mesh indices | path |
/// |---|---|---|
/// | faceContour | 127 234 93 132 58 172 136 150 149 176 148 152 377 400 378 379 365 397 288 361 323 454 356: the jaw line from the subject's right temple over the chin to the left temple | open |
/// | leftEye | 362 398 384 385 386 387 388 466 263 249 390 373 374 380 381 382: inner corner, upper lid, outer corner, lower lid | closed |
/// | rightEye | 33 246 161 160 159 158 157 173 133 155 154 153 145 144 163 7: outer corner, upper lid, inner corner, lower lid | closed |
/// | leftEyebrow | 336 296 334 293 300 (upper edge, inner → outer) 276 283 282 295 285 (lower edge, outer → inner) | closed |
/// | rightEyebrow | 70 63 105 66 107 (upper edge, outer → inner) 55 65 52 53 46 (lower edge, inner → outer) | closed |
/// | nose | 48 64 98 97 2 326 327 294 278: round the nostrils from one side of the nose to the other | open |
/// | noseCrest | 168 6 197 195 5 4 1: the ridge from between the eyes to the tip | open |
/// | medianLine | 9 8 168 6 197 195 5 4 1 19 94 2 164 0 11 12 13 14 15 16 17 18 200 199 175 152: the face's midline from between the brows to the chin | open |
/// | outerLips | 61 185 40 39 37 0 267 269 270 409 291 375 321 405 314 17 84 181 91 146 | closed |
/// | innerLips | 78 191 80 81 82 13 312 311 310 415 308 324 318 402 317 14 87 178 88 95 | closed |
/// | leftPupil | 473 (iris centre) | single point |
/// | rightPupil | 468 | single point |
/// | allPoints | every region above in this order | disconnected |
///
/// In an upright frontal face the loops run clockwise on screen.
public struct FaceLandmarks2D: Sendable, Hashable {
    public let faceContour: FaceLandmarkRegion
    public let leftEye: FaceLandmarkRegion
    public let rightEye: FaceLandmarkRegion
    public let leftEyebrow: FaceLandmarkRegion
    public let rightEyebrow: FaceLandmarkRegion
    public let nose: FaceLandmarkRegion
    public let noseCrest: FaceLandmarkRegion
    public let medianLine: FaceLandmarkRegion
    public let outerLips: FaceLandmarkRegion
    public let innerLips: FaceLandmarkRegion
    public let leftPupil: FaceLandmarkRegion
    public let rightPupil: FaceLandmarkRegion
    public let allPoints: FaceLandmarkRegion

    /// Mesh indices of each region, in the table's order.
    static let faceContourIndices = [127, 234, 93, 132, 58, 172, 136, 150, 149, 176, 148, 152, 377, 400, 378, 379, 365, 397, 288, 361, 323, 454, 356]
    static let leftEyeIndices = [362, 398, 384, 385, 386, 387, 388, 466, 263, 249, 390, 373, 374, 380, 381, 382]
    static let rightEyeIndices = [33, 246, 161, 160, 159, 158, 157, 173, 133, 155, 154, 153, 145, 144, 163, 7]
    static let leftEyebrowIndices = [336, 296, 334, 293, 300, 276, 283, 282, 295, 285]
    static let rightEyebrowIndices = [70, 63, 105, 66, 107, 55, 65, 52, 53, 46]
    static let noseIndices = [48, 64, 98, 97, 2, 326, 327, 294, 278]
    static let noseCrestIndices = [168, 6, 197, 195, 5, 4, 1]
    static let medianLineIndices = [9, 8, 168, 6, 197, 195, 5, 4, 1, 19, 94, 2, 164, 0, 11, 12, 13, 14, 15, 16, 17, 18, 200, 199, 175, 152]
    static let outerLipsIndices = [61, 185, 40, 39, 37, 0, 267, 269, 270, 409, 291, 375, 321, 405, 314, 17, 84, 181, 91, 146]
    static let innerLipsIndices = [78, 191, 80, 81, 82, 13, 312, 311, 310, 415, 308, 324, 318, 402, 317, 14, 87, 178, 88, 95]
    static let leftPupilIndices = [473]
    static let rightPupilIndices = [468]

    /// The regions of `mesh`, normalized to `boundingBox` (normalized to the picture, origin lower left);
    /// without a box, to the box around the mesh's points.
    ///
    /// - Throws: ``LandmarkError/landmarkCount(_:expected:)`` for a mesh without irises,
    ///   ``LandmarkError/degenerateRegion(reason:)`` for a box without area.
    public init(mesh: FaceMesh, boundingBox: NormalizedRect? = nil) throws(LandmarkError) {
        guard mesh.points.count >= FaceMesh.pointCount else {
            throw .landmarkCount(mesh.points.count, expected: FaceMesh.pointCount)
        }
        let box: NormalizedRect
        if let boundingBox {
            box = boundingBox
        } else {
            let bounds = mesh.pixelBounds
            box = NormalizedRect(
                x: bounds.x / Double(mesh.imageWidth), y: 1 - (bounds.y + bounds.height) / Double(mesh.imageHeight),
                width: bounds.width / Double(mesh.imageWidth), height: bounds.height / Double(mesh.imageHeight))
        }
        guard box.width > 0, box.height > 0, box.width.isFinite, box.height.isFinite, box.minX.isFinite, box.minY.isFinite else {
            throw .degenerateRegion(reason: "face box \(box) has no area")
        }
        func region(_ indices: [Int], _ kind: FaceLandmarkRegion.PointsClassification) -> FaceLandmarkRegion {
            FaceLandmarkRegion(mesh: mesh, indices: indices, classification: kind, boundingBox: box)
        }
        faceContour = region(Self.faceContourIndices, .openPath)
        leftEye = region(Self.leftEyeIndices, .closedPath)
        rightEye = region(Self.rightEyeIndices, .closedPath)
        leftEyebrow = region(Self.leftEyebrowIndices, .closedPath)
        rightEyebrow = region(Self.rightEyebrowIndices, .closedPath)
        nose = region(Self.noseIndices, .openPath)
        noseCrest = region(Self.noseCrestIndices, .openPath)
        medianLine = region(Self.medianLineIndices, .openPath)
        outerLips = region(Self.outerLipsIndices, .closedPath)
        innerLips = region(Self.innerLipsIndices, .closedPath)
        leftPupil = region(Self.leftPupilIndices, .disconnected)
        rightPupil = region(Self.rightPupilIndices, .disconnected)
        let all = [
            Self.faceContourIndices, Self.leftEyeIndices, Self.rightEyeIndices, Self.leftEyebrowIndices,
            Self.rightEyebrowIndices, Self.noseIndices, Self.noseCrestIndices, Self.medianLineIndices,
            Self.outerLipsIndices, Self.innerLipsIndices, Self.leftPupilIndices, Self.rightPupilIndices,
        ].flatMap { $0 }
        allPoints = region(all, .disconnected)
    }
}
