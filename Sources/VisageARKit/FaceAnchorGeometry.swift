package import Visage

/// ARKit's face geometry from one face's mesh analysis: the anchor transform from the fitted head pose,
/// the eye transforms and the look-at point from Visage's gaze (``GazeEstimator``: eyeball centres
/// fixed in the canonical face, irises from the mesh, a 1.2 cm eyeball radius).
package struct FaceAnchorGeometry: Sendable {
    /// Eyeball centres in face space, metres.
    package let leftEyeCentre: SIMD3<Float>
    package let rightEyeCentre: SIMD3<Float>

    init(model: EyeballModel) {
        func metres(_ v: SIMD3<Double>) -> SIMD3<Float> { SIMD3(Float(v.x / 100), Float(v.y / 100), Float(v.z / 100)) }
        leftEyeCentre = metres(model.leftCentre)
        rightEyeCentre = metres(model.rightCentre)
    }

    /// The canonical face of the bundled geometry metadata, loaded once.
    package static let shared: Result<FaceAnchorGeometry, ARError> = {
        guard let estimator = GazeEstimator.bundled else {
            return .failure(ARError(.sensorFailed, reason: "the canonical face model cannot be loaded"))
        }
        return .success(FaceAnchorGeometry(model: estimator.model))
    }()

    /// The anchor transform: the head pose's rotation without its scale, translation in metres.
    package static func anchorTransform(_ pose: HeadPose) -> simd_float4x4 {
        let m = pose.transform
        var columns: [SIMD4<Float>] = []
        for column in 0..<3 {
            let c = SIMD3(m[column], m[4 + column], m[8 + column])
            let unit = c / (c * c).sum().squareRoot()
            columns.append(SIMD4(Float(unit.x), Float(unit.y), Float(unit.z), 0))
        }
        columns.append(SIMD4(Float(m[3] / 100), Float(m[7] / 100), Float(m[11] / 100), 1))
        return simd_float4x4(columns)
    }

    /// A row-major 4×4 (``EyeGaze/transform``) as simd's column-major matrix.
    package static func matrix(_ m: [Double]) -> simd_float4x4 {
        let f = m.map { Float($0) }
        var columns: [SIMD4<Float>] = []
        for c in 0..<4 { columns.append(SIMD4<Float>(f[c], f[4 + c], f[8 + c], f[12 + c])) }
        return simd_float4x4(columns)
    }

    /// The eye transforms and look-at point of `analysis`; without a gaze (no irises), eyes looking
    /// straight out of the face and a look-at point 2 m ahead.
    package func eyes(_ analysis: FaceAnalysis) -> (left: simd_float4x4, right: simd_float4x4, lookAt: SIMD3<Float>) {
        guard let gaze = analysis.gaze else {
            func ahead(_ centre: SIMD3<Float>) -> simd_float4x4 {
                var m = matrix_identity_float4x4
                m.columns.3 = SIMD4(centre.x, centre.y, centre.z, 1)
                return m
            }
            let middle = (leftEyeCentre + rightEyeCentre) / 2
            return (ahead(leftEyeCentre), ahead(rightEyeCentre), middle + SIMD3(0, 0, 2))
        }
        let p = gaze.lookAtPoint
        return (Self.matrix(gaze.left.transform), Self.matrix(gaze.right.transform), SIMD3(Float(p.x), Float(p.y), Float(p.z)))
    }
}
