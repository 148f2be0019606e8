// App code that reads a face anchor as tutorials do: position from `transform.columns.3`, gaze from
// `lookAtPoint` and the eye transforms, a smile from `mouthSmileLeft`/`Right` via `decimalValue`, and
// every coefficient through `floatValue`. Only the import lines differ from the iOS original.
#if canImport(ARKit)
import ARKit
#else
import VisageARKit
#endif

struct FaceReading {
    var position: simd_float3
    var lookAtPoint: simd_float3
    var leftEyePosition: simd_float3
    var rightEyePosition: simd_float3
    var isSmiling: Bool
    var coefficients: [String: Float]
}

enum FaceExpressionReader {
    static func read(_ faceAnchor: ARFaceAnchor) -> FaceReading {
        let position = simd_make_float3(faceAnchor.transform.columns.3)
        let smileLeft = faceAnchor.blendShapes[.mouthSmileLeft]
        let smileRight = faceAnchor.blendShapes[.mouthSmileRight]
        let isSmiling = ((smileLeft?.decimalValue ?? 0.0) + (smileRight?.decimalValue ?? 0.0)) > 0.9
        var coefficients: [String: Float] = [:]
        for (location, value) in faceAnchor.blendShapes {
            coefficients[location.rawValue] = value.floatValue
        }
        return FaceReading(
            position: position, lookAtPoint: faceAnchor.lookAtPoint,
            leftEyePosition: simd_make_float3(faceAnchor.leftEyeTransform.columns.3),
            rightEyePosition: simd_make_float3(faceAnchor.rightEyeTransform.columns.3),
            isSmiling: isSmiling, coefficients: coefficients)
    }
}
