/// Everything the mesh stage learns about one face.
public struct FaceAnalysis: Sendable, Hashable {
    /// The region of the picture the mesh model saw.
    public var region: MeshRegion
    public var mesh: FaceMesh
    public var blendshapes: FaceBlendshapes
    public var pose: HeadPose
    public var classification: FaceClassification

    public init(region: MeshRegion, mesh: FaceMesh, blendshapes: FaceBlendshapes, pose: HeadPose, classification: FaceClassification) {
        self.region = region
        self.mesh = mesh
        self.blendshapes = blendshapes
        self.pose = pose
        self.classification = classification
    }
}
