/// ARKit's `ARFaceAnchor`: a face's pose, eyes, gaze and expression coefficients in one frame.
///
/// - ``transform``: the face's pose in world space (metres; see ``ARAnchor/transform``). Face space has
///   its origin behind the nose, +x towards the face's own left (the viewer's right), +y up and +z out of
///   the face, as ARKit's. It is the pose of MediaPipe's canonical face fitted to the mesh, with the
///   scale removed and centimetres turned into metres; its depth assumes MediaPipe's virtual camera (63°
///   vertical field of view), not the real lens, so distances are estimates.
/// - ``blendShapes``: all 52 of ARKit's locations, each an `NSNumber(value: Float)` in 0…1, so that
///   `as? Float` succeeds. 51 come from MediaPipe's blendshape model; ``BlendShapeLocation/tongueOut``,
///   which the model does not estimate, is always 0.
/// - ``leftEyeTransform``, ``rightEyeTransform``, ``lookAtPoint``: approximate, derived from the iris
///   and eye corners of the mesh (see the README's ARKit section for the method).
///
/// While a face is out of view its anchor stays, with ``isTracked`` false and its last pose.
public final class ARFaceAnchor: ARAnchor, ARTrackable, @unchecked Sendable {
    public let isTracked: Bool
    public let blendShapes: [BlendShapeLocation: NSNumber]
    /// The subject's left eye: origin at the eyeball's centre, +z towards the pupil, relative to the
    /// anchor (face space), metres.
    public let leftEyeTransform: simd_float4x4
    /// The subject's right eye, as ``leftEyeTransform``.
    public let rightEyeTransform: simd_float4x4
    /// Where the eyes look, in face space (metres): +x when the subject looks to their own left.
    public let lookAtPoint: simd_float3

    init(
        identifier: UUID, transform: simd_float4x4, isTracked: Bool, blendShapes: [BlendShapeLocation: NSNumber],
        leftEyeTransform: simd_float4x4, rightEyeTransform: simd_float4x4, lookAtPoint: simd_float3
    ) {
        self.isTracked = isTracked
        self.blendShapes = blendShapes
        self.leftEyeTransform = leftEyeTransform
        self.rightEyeTransform = rightEyeTransform
        self.lookAtPoint = lookAtPoint
        super.init(identifier: identifier, transform: transform)
    }

    /// This anchor with tracking lost: same pose and coefficients, ``isTracked`` false.
    func untracked() -> ARFaceAnchor {
        ARFaceAnchor(
            identifier: identifier, transform: transform, isTracked: false, blendShapes: blendShapes,
            leftEyeTransform: leftEyeTransform, rightEyeTransform: rightEyeTransform, lookAtPoint: lookAtPoint)
    }
}
