import Foundation

/// MediaPipe's canonical face model and the weights its pose fit uses, read from
/// `geometry_pipeline_metadata_landmarks.binarypb` (``VisageModels/BundledModel/faceGeometry``).
///
/// The file is a `GeometryPipelineMetadata` protobuf: field 1 the canonical mesh (`Mesh3d`: vertex type 1,
/// primitive type 2, vertex buffer 3 as x, y, z, u, v per vertex in centimetres, index buffer 4), field 2
/// the repeated Procrustes basis (`WeightedLandmarkRef`: landmark id 1, weight 2), field 3 the input source.
public struct FaceGeometryMetadata: Sendable, Hashable {
    /// The canonical face's vertex positions (centimetres; x to the subject's left, y up, z out of the face).
    public let canonicalVertices: [SIMD3<Double>]
    /// The landmarks the pose fit uses and their weights; all others weigh nothing. Read-only, like the
    /// vertices: every index is checked against them once, when the file is read, and the fit relies on it.
    public let basis: [(index: Int, weight: Double)]

    public static func == (a: Self, b: Self) -> Bool {
        a.canonicalVertices == b.canonicalVertices && a.basis.elementsEqual(b.basis) { $0 == $1 }
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(canonicalVertices)
        for entry in basis { hasher.combine(entry.index); hasher.combine(entry.weight) }
    }

    /// Reads the metadata.
    ///
    /// - Throws: ``FaceGeometryError/malformedMetadata(reason:)`` when the bytes are not a geometry
    ///   metadata message with a position-and-texture mesh and at least three positively weighted
    ///   landmarks that exist in the mesh.
    public init(data: Data) throws(FaceGeometryError) {
        var reader = ProtobufReader([UInt8](data)[...])
        var vertexBuffer = [Float]()
        var basis = [(index: Int, weight: Double)]()
        while let (field, value) = try reader.next() {
            switch (field, value) {
            case let (1, .bytes(mesh)): vertexBuffer = try Self.vertexBuffer(of: mesh)
            case let (2, .bytes(reference)): basis.append(try Self.basisEntry(reference))
            default: continue  // input source and unknown fields
            }
        }
        guard !vertexBuffer.isEmpty, vertexBuffer.count % 5 == 0 else {
            throw .malformedMetadata(reason: "canonical mesh has \(vertexBuffer.count) vertex values; expected a positive multiple of 5")
        }
        guard vertexBuffer.allSatisfy(\.isFinite) else { throw .malformedMetadata(reason: "canonical mesh holds a non-finite value") }
        canonicalVertices = stride(from: 0, to: vertexBuffer.count, by: 5).map {
            SIMD3(Double(vertexBuffer[$0]), Double(vertexBuffer[$0 + 1]), Double(vertexBuffer[$0 + 2]))
        }
        for entry in basis where entry.index >= canonicalVertices.count {
            throw .malformedMetadata(reason: "basis landmark \(entry.index) is beyond the mesh's \(canonicalVertices.count) vertices")
        }
        self.basis = basis.filter { $0.weight > 0 }
        guard self.basis.count >= 3 else {
            throw .malformedMetadata(reason: "\(self.basis.count) positively weighted basis landmarks; at least 3 needed")
        }
    }

    private static func vertexBuffer(of mesh: ArraySlice<UInt8>) throws(FaceGeometryError) -> [Float] {
        var reader = ProtobufReader(mesh)
        var values = [Float]()
        while let (field, value) = try reader.next() {
            switch (field, value) {
            case let (1, .varint(type)) where type != 0:
                throw .malformedMetadata(reason: "vertex type \(type); only VERTEX_PT (0: x, y, z, u, v) is read")
            case (3, _): values += try value.floats(field: 3)
            default: continue
            }
        }
        return values
    }

    private static func basisEntry(_ bytes: ArraySlice<UInt8>) throws(FaceGeometryError) -> (index: Int, weight: Double) {
        var reader = ProtobufReader(bytes)
        var index = 0, weight: Float = 0
        while let (field, value) = try reader.next() {
            switch (field, value) {
            case let (1, .varint(id)):
                guard id < 1 << 20 else { throw .malformedMetadata(reason: "basis landmark id \(id) is out of range") }
                index = Int(id)
            case let (2, .fixed32(bits)): weight = Float(bitPattern: bits)
            default: continue
            }
        }
        guard weight.isFinite, weight >= 0 else { throw .malformedMetadata(reason: "basis landmark \(index) has weight \(weight)") }
        return (index, Double(weight))
    }
}
