package import Visage

/// The session's face anchors across frames: one per face slot, each keeping its identifier while the
/// same tracking ID stays in view, then kept untracked and reused for the next new face (as ARKit keeps
/// and reuses face anchors).
package struct FaceAnchorSlots {
    private struct Slot {
        var anchor: ARFaceAnchor
        /// The tracker's ID of the face in this slot; nil while the slot's face is out of view.
        var trackingID: Int?
    }

    private var slots: [Slot] = []

    var anchors: [ARFaceAnchor] { slots.map(\.anchor) }

    /// Takes one frame's tracked faces: anchors for faces new to the session, then every other anchor
    /// (with ``ARFaceAnchor/isTracked`` false for faces not in this frame).
    mutating func update(with faces: [TrackedFace], geometry: FaceAnchorGeometry) -> (added: [ARFaceAnchor], updated: [ARFaceAnchor]) {
        let ids = Set(faces.map(\.trackingID))
        for index in slots.indices where slots[index].trackingID.map({ !ids.contains($0) }) ?? true {
            if slots[index].trackingID != nil || slots[index].anchor.isTracked {
                slots[index].anchor = slots[index].anchor.untracked()
            }
            slots[index].trackingID = nil
        }
        var added: [ARFaceAnchor] = []
        var touched = Set<Int>()
        for face in faces {
            let slot = slots.firstIndex { $0.trackingID == face.trackingID } ?? slots.firstIndex { $0.trackingID == nil }
            if let slot {
                slots[slot] = Slot(anchor: Self.anchor(face, identifier: slots[slot].anchor.identifier, geometry: geometry), trackingID: face.trackingID)
                touched.insert(slot)
            } else {
                let anchor = Self.anchor(face, identifier: UUID(), geometry: geometry)
                slots.append(Slot(anchor: anchor, trackingID: face.trackingID))
                added.append(anchor)
            }
        }
        let addedIDs = Set(added.map(\.identifier))
        return (added, slots.map(\.anchor).filter { !addedIDs.contains($0.identifier) })
    }

    /// Forgets every anchor, returning them.
    mutating func removeAll() -> [ARFaceAnchor] {
        defer { slots.removeAll() }
        return anchors
    }

    static func anchor(_ face: TrackedFace, identifier: UUID, geometry: FaceAnchorGeometry) -> ARFaceAnchor {
        let analysis = face.analysis
        let transform = FaceAnchorGeometry.anchorTransform(analysis.pose)
        let eyes = geometry.eyes(analysis)
        return ARFaceAnchor(
            identifier: identifier, transform: transform, isTracked: true, blendShapes: blendShapes(analysis.blendshapes),
            leftEyeTransform: eyes.left, rightEyeTransform: eyes.right, lookAtPoint: eyes.lookAt)
    }

    /// All 52 locations: MediaPipe's 51 coefficients by name, and `tongueOut`, which the model does not
    /// estimate, at 0. Each an `NSNumber(value: Float)`, as ARKit's.
    package static func blendShapes(_ values: FaceBlendshapes) -> [ARFaceAnchor.BlendShapeLocation: NSNumber] {
        var shapes: [ARFaceAnchor.BlendShapeLocation: NSNumber] = [.tongueOut: NSNumber(value: Float(0))]
        for shape in Blendshape.allCases {
            guard let location = ARFaceAnchor.BlendShapeLocation.byMemberName[shape.description] else { continue }
            shapes[location] = NSNumber(value: values[shape])
        }
        return shapes
    }
}
