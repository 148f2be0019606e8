import Foundation

extension FaceRecord {
    /// The record of one analysed face in an upright picture of `imageSize`, carrying `features`.
    package init(_ analyzed: FaceDetector.AnalyzedFace, features: FaceFeatures, imageSize: CGSize) {
        let face = analyzed.face
        let frame = face.frame
        let box = NormalizedRect(imageRect: frame, in: imageSize, origin: .upperLeft)
        self.init(
            frame: Rect(x: frame.minX, y: frame.minY, width: frame.width, height: frame.height),
            boundingBox: Rect(x: box.minX, y: box.minY, width: box.width, height: box.height),
            confidence: face.confidence,
            roll: face.headEulerAngleZ, yaw: face.headEulerAngleY, pitch: face.headEulerAngleX,
            keypoints: Dictionary(uniqueKeysWithValues: face.keypoints.map { ($0.key.description, Point($0.value)) }))
        guard let analysis = analyzed.analysis else { return }
        if features.contains(.landmarks) {
            landmarks = FaceLandmarks2D.regionsByName(analysis.mesh, box: box).mapValues {
                $0.pointsInImage(imageSize: imageSize, origin: .upperLeft).map(Point.init)
            }
            mlkitLandmarks = Dictionary(uniqueKeysWithValues: face.landmarks.map { ($0.type.rawValue, Point($0.position)) })
        }
        if features.contains(.contours) {
            contours = Dictionary(uniqueKeysWithValues: face.contours.map { ($0.type.rawValue, $0.points.map(Point.init)) })
        }
        if features.contains(.mesh) {
            let mesh = analysis.mesh
            self.mesh = mesh.points.indices.map {
                let p = mesh.pixel($0)
                return Point3(x: p.x, y: p.y, z: Double(mesh.points[$0].z) * Double(mesh.imageWidth))
            }
        }
        if features.contains(.classify) {
            blendshapes = analysis.blendshapes.named
            (smilingProbability, leftEyeOpenProbability, rightEyeOpenProbability) =
                (face.smilingProbability, face.leftEyeOpenProbability, face.rightEyeOpenProbability)
        }
        captureQuality = analyzed.captureQuality
    }
}

extension FaceRecord.Point {
    package init(_ point: CGPoint) { self.init(x: point.x, y: point.y) }
}

extension FacesRecord {
    /// Detects and analyses the faces of `image` with `detector`, most confident first, keeping at most
    /// `maxFaces`: the record the CLI prints and the service answers.
    package init(
        analyzing image: Image, named name: String, detector: FaceDetector, features: FaceFeatures, maxFaces: Int? = nil
    ) throws(FaceDetectionError) {
        let faces = try detector.analyzedFaces(
            in: image, mesh: features.needsMesh, captureQuality: features.contains(.quality), maxFaces: maxFaces)
        let size = image.size
        self.init(
            image: name, width: Int(size.width), height: Int(size.height),
            faces: faces.map { FaceRecord($0, features: features, imageSize: size) })
    }
}

extension FaceLandmarks2D {
    /// Vision's regions of a face by their property names, normalized to `box`; empty when the mesh
    /// cannot make them.
    package static func regionsByName(_ mesh: FaceMesh, box: NormalizedRect) -> [String: FaceLandmarkRegion] {
        guard let l = try? FaceLandmarks2D(mesh: mesh, boundingBox: box) else { return [:] }
        return [
            "faceContour": l.faceContour, "leftEye": l.leftEye, "rightEye": l.rightEye, "leftEyebrow": l.leftEyebrow,
            "rightEyebrow": l.rightEyebrow, "nose": l.nose, "noseCrest": l.noseCrest, "medianLine": l.medianLine,
            "outerLips": l.outerLips, "innerLips": l.innerLips, "leftPupil": l.leftPupil, "rightPupil": l.rightPupil,
        ]
    }
}
