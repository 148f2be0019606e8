import Foundation

/// Observations encode everything they hold; the landmark regions are rebuilt from the mesh on decoding.
extension FaceObservation: Codable {
    private enum CodingKeys: String, CodingKey {
        case uuid, confidence, boundingBox, roll, yaw, pitch, keypoints, captureQuality, analysis
    }

    /// The analysis as plain numbers: region, mesh (x, y, z per point), the blendshape model's 52 outputs,
    /// the pose's 4×4 transform and the three probabilities.
    private struct AnalysisRecord: Codable {
        var region: [Double]
        var imageWidth: Int
        var imageHeight: Int
        var mesh: [Float]
        var presence: Float
        var blendshapes: [Float]
        var transform: [Double]
        var classification: [Float]

        init(_ a: FaceAnalysis) {
            // A fifth value, the height, only where it differs from the side (a detection's region).
            region = [a.region.centerX, a.region.centerY, a.region.side, a.region.rotation] + (a.region.height == a.region.side ? [] : [a.region.height])
            (imageWidth, imageHeight) = (a.mesh.imageWidth, a.mesh.imageHeight)
            mesh = a.mesh.points.flatMap { [$0.x, $0.y, $0.z] }
            presence = a.mesh.presence
            blendshapes = [a.blendshapes.neutral] + a.blendshapes.values
            transform = a.pose.transform
            let c = a.classification
            classification = [c.smilingProbability, c.leftEyeOpenProbability, c.rightEyeOpenProbability]
        }

        func analysis(codingPath: [any CodingKey]) throws -> FaceAnalysis {
            guard region.count == 4 || region.count == 5, mesh.count % 3 == 0, transform.count == 16, classification.count == 3 else {
                throw DecodingError.dataCorrupted(.init(
                    codingPath: codingPath, debugDescription: "analysis needs 4 or 5 region values, x y z per mesh point, 16 transform values and 3 probabilities"))
            }
            let points = stride(from: 0, to: mesh.count, by: 3).map { SIMD3(mesh[$0], mesh[$0 + 1], mesh[$0 + 2]) }
            return FaceAnalysis(
                region: MeshRegion(
                    centerX: region[0], centerY: region[1], side: region[2], height: region.count == 5 ? region[4] : region[2], rotation: region[3],
                    imageWidth: imageWidth, imageHeight: imageHeight),
                mesh: FaceMesh(points: points, presence: presence, imageWidth: imageWidth, imageHeight: imageHeight),
                blendshapes: try FaceBlendshapes(modelOutput: blendshapes),
                pose: HeadPose(transform: transform),
                classification: FaceClassification(
                    smilingProbability: classification[0], leftEyeOpenProbability: classification[1],
                    rightEyeOpenProbability: classification[2]))
        }
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let record = try c.decodeIfPresent(AnalysisRecord.self, forKey: .analysis)
        self.init(
            uuid: try c.decode(UUID.self, forKey: .uuid), confidence: try c.decode(Float.self, forKey: .confidence),
            boundingBox: try c.decode(NormalizedRect.self, forKey: .boundingBox),
            roll: try c.decode(Measurement<UnitAngle>.self, forKey: .roll), yaw: try c.decode(Measurement<UnitAngle>.self, forKey: .yaw),
            pitch: try c.decode(Measurement<UnitAngle>.self, forKey: .pitch), keypoints: try c.decode(FaceKeypoints.self, forKey: .keypoints),
            captureQuality: try c.decodeIfPresent(Float.self, forKey: .captureQuality),
            analysis: try record?.analysis(codingPath: c.codingPath + [CodingKeys.analysis]))
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(uuid, forKey: .uuid)
        try c.encode(confidence, forKey: .confidence)
        try c.encode(boundingBox, forKey: .boundingBox)
        try c.encode(roll, forKey: .roll)
        try c.encode(yaw, forKey: .yaw)
        try c.encode(pitch, forKey: .pitch)
        try c.encode(keypoints, forKey: .keypoints)
        try c.encodeIfPresent(captureQuality, forKey: .captureQuality)
        try c.encodeIfPresent(analysis.map(AnalysisRecord.init), forKey: .analysis)
    }
}
