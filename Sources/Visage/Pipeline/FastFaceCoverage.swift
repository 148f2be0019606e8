/// Accurate mode's promise that it reports every face fast mode finds (issue 16): each detection of the
/// short-range letterbox pass, which is fast mode's output bit for bit, is covered by a reported face at
/// IoU ≥ ``sameFace``.
///
/// Accurate mode runs that pass and keeps its faces, but merging and rotation search may report a face
/// with another box: rotation search keeps a face from the view where it stands upright, and for a face
/// upside down or on its side the upright pass's box and the turned view's can disagree (on the
/// evaluation, takeo.ppm turned by 180°: fast mode's box and accurate mode's overlap at IoU 0.49, while
/// the turned view's box is the better one, IoU 0.80 with the label against 0.41). Such a box is moved
/// toward fast mode's, corner by corner, only as far as the promise needs; score and keypoints stay the
/// chosen detection's. A fast-mode face no reported face overlaps at all (which merging should never
/// give) is added as it is.
package enum FastFaceCoverage {
    /// The overlap at which a reported face counts as the same as fast mode's (the evaluation's superset rule).
    package static let sameFace: Float = 0.5

    /// `detections` with each of `fastFaces` covered at IoU ≥ ``sameFace``, in the same order (added
    /// faces last). Each fast-mode face, by decreasing score, is covered by the reported face that
    /// overlaps it most.
    package static func covering(_ fastFaces: [Detection], in detections: [Detection]) -> [Detection] {
        var reported = detections
        for fast in fastFaces.sorted(by: { $0.score > $1.score }) {
            guard let (best, overlap) = mostOverlapping(fast, in: reported), overlap > 0 else {
                reported.append(fast)
                continue
            }
            if overlap < sameFace { reported[best] = moved(reported[best], toward: fast) }
        }
        return reported
    }

    /// The face of `fastFaces` that overlaps `detection` most, at IoU ≥ ``sameFace``: the same face as
    /// fast mode found it, whose box accurate mode's mesh region is cut from.
    ///
    /// The mesh follows its region, and accurate mode's merged box (led by the full-range model's) sits
    /// elsewhere on the face than the short-range box MediaPipe's FaceLandmarker cuts its region from. On
    /// `Scripts/evaluate.py --tilts` (2026-11-27, the 102 labelled faces accurate mode and FaceLandmarker
    /// both find, every one of them also found by fast mode), starting from fast mode's box took the faces
    /// where accurate mode's landmarks are further from the labels than FaceLandmarker's by more than
    /// 0.001 of the eye distance from 30 to 10, and by more than 0.005 from 7 to 3 (fast mode: 1 and 1);
    /// the mean over all sets rose from 0.0373 to 0.0382 (FaceLandmarker 0.0411), with the blurred set at
    /// fast mode's 0.0622 (0.0601 before, FaceLandmarker 0.0610). One refinement pass instead of two, or
    /// the short-range keypoints as refinement's referee, did no better.
    package static func fastFace(for detection: Detection, in fastFaces: [Detection]) -> Detection? {
        guard let (best, overlap) = mostOverlapping(detection, in: fastFaces), overlap >= sameFace else { return nil }
        return fastFaces[best]
    }

    /// The index of the face of `faces` that overlaps `detection` most (the first of equals), and that IoU;
    /// nil when `faces` is empty.
    private static func mostOverlapping(_ detection: Detection, in faces: [Detection]) -> (index: Int, overlap: Float)? {
        let overlaps = faces.map { $0.intersectionOverUnion(detection) }
        return overlaps.indices.max { overlaps[$0] < overlaps[$1] }.map { ($0, overlaps[$0]) }
    }

    /// How far above ``sameFace`` a moved box's overlap is aimed: a box moved to exactly 0.5 in Float
    /// normalized coordinates read 0.49997 once written out in pixels and recomputed in Double
    /// (`evaluate.py` on takeo.ppm turned by 180°, after the short-range letterbox moved its box by 0.1 px).
    package static let margin: Float = 0.001

    /// `detection` with its box the nearest point, on the straight path of its corners toward `fast`'s,
    /// that overlaps `fast` at ``sameFace`` + ``margin`` or more (bisection; the end of the path is `fast`'s
    /// own box).
    static func moved(_ detection: Detection, toward fast: Detection) -> Detection {
        func box(_ t: Float) -> Detection {
            var d = detection
            let xMax = detection.xMax + t * (fast.xMax - detection.xMax), yMax = detection.yMax + t * (fast.yMax - detection.yMax)
            d.xMin = detection.xMin + t * (fast.xMin - detection.xMin)
            d.yMin = detection.yMin + t * (fast.yMin - detection.yMin)
            (d.width, d.height) = (xMax - d.xMin, yMax - d.yMin)
            return d
        }
        var (low, high): (Float, Float) = (0, 1)
        for _ in 0..<32 {
            let middle = (low + high) / 2
            if box(middle).intersectionOverUnion(fast) >= sameFace + margin { high = middle } else { low = middle }
        }
        let result = box(high)
        return result.intersectionOverUnion(fast) >= sameFace + margin ? result : box(1)
    }
}
