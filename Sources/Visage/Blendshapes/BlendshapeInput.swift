/// The blendshape model's input: 146 of the mesh's 478 points, in pixels.
///
/// The subset and its order are MediaPipe's (`kLandmarksSubsetIdxs` in `face_blendshapes_graph.cc`); the
/// model reads them as a 1×146×2 tensor of (x, y) in pixels of the upright picture (MediaPipe's
/// `LandmarksToTensorCalculator` multiplies the normalized points by the image size; z is not used).
public enum BlendshapeInput {
    /// Mesh indices in the model's input order.
    public static let meshIndices: [Int] = [
        0, 1, 4, 5, 6, 7, 8, 10, 13, 14, 17, 21, 33, 37, 39, 40, 46, 52, 53, 54, 55, 58, 61, 63, 65, 66, 67,
        70, 78, 80, 81, 82, 84, 87, 88, 91, 93, 95, 103, 105, 107, 109, 127, 132, 133, 136, 144, 145, 146,
        148, 149, 150, 152, 153, 154, 155, 157, 158, 159, 160, 161, 162, 163, 168, 172, 173, 176, 178, 181,
        185, 191, 195, 197, 234, 246, 249, 251, 263, 267, 269, 270, 276, 282, 283, 284, 285, 288, 291, 293,
        295, 296, 297, 300, 308, 310, 311, 312, 314, 317, 318, 321, 323, 324, 332, 334, 336, 338, 356, 361,
        362, 365, 373, 374, 375, 377, 378, 379, 380, 381, 382, 384, 385, 386, 387, 388, 389, 390, 397, 398,
        400, 402, 405, 409, 415, 454, 466, 468, 469, 470, 471, 472, 473, 474, 475, 476, 477,
    ]

    /// Number of floats the input tensor holds.
    public static let count = 2 * 146

    /// Writes the input for `mesh` into `tensor` (at least ``count`` floats).
    ///
    /// - Throws: ``BlendshapeError/meshSize(count:expected:)`` when the mesh lacks the iris points.
    package static func write(_ mesh: FaceMesh, into tensor: UnsafeMutableBufferPointer<Float>) throws(BlendshapeError) {
        guard mesh.points.count >= FaceMesh.pointCount else {
            throw .meshSize(count: mesh.points.count, expected: FaceMesh.pointCount)
        }
        precondition(tensor.count >= count, "blendshape input needs \(count) floats, got \(tensor.count)")
        let width = Float(mesh.imageWidth), height = Float(mesh.imageHeight)
        for (slot, index) in meshIndices.enumerated() {
            tensor[2 * slot] = mesh.points[index].x * width
            tensor[2 * slot + 1] = mesh.points[index].y * height
        }
    }

    /// The input for `mesh` as an array.
    public static func values(for mesh: FaceMesh) throws(BlendshapeError) -> [Float] {
        var values = [Float](repeating: 0, count: count)
        try values.withUnsafeMutableBufferPointer { buffer throws(BlendshapeError) in try write(mesh, into: buffer) }
        return values
    }
}
