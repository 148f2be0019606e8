import VisageGeometry

/// Drops near-copies from a list of contours without comparing all pairs.
///
/// Two contours are copies when their bounding boxes (grown by half a pixel, so lines and dots
/// have area) and their enclosed regions both overlap with IoU ≥ the threshold. Candidates come
/// from a sort-and-sweep over the boxes: sorted by left edge, a box can only reach IoU t with
/// boxes whose left edge lies within (1 − t) of its width from its own, because the horizontal
/// overlap must be at least t times either width. Region IoU, the costly test, runs only for
/// candidates against contours already kept.
package enum ContourDeduplication {
    /// The contours that no earlier kept contour copies, in their original order.
    /// - Complexity: O(n log n + candidates × IoU cost) for n contours.
    package static func unique(_ contours: [Contour], threshold: Double) -> [Contour] {
        let boxes = contours.map { contour -> NormalizedRect in
            let box = contour.boundingBox
            let dx = 0.5 / Double(max(contour.tree.gridWidth, 1)), dy = 0.5 / Double(max(contour.tree.gridHeight, 1))
            return NormalizedRect(x: box.minX - dx, y: box.minY - dy, width: box.width + 2 * dx, height: box.height + 2 * dy)
        }
        let byLeft = contours.indices.sorted { boxes[$0].minX < boxes[$1].minX }
        // Earlier contours (by original index) whose boxes overlap enough.
        var candidates = [[Int]](repeating: [], count: contours.count)
        for (k, i) in byLeft.enumerated() {
            let reach = boxes[i].maxX - threshold * boxes[i].width
            for j in byLeft[(k + 1)...] {
                if boxes[j].minX > reach { break }
                guard boxes[i].intersectionOverUnion(boxes[j]) >= threshold else { continue }
                if i < j { candidates[j].append(i) } else { candidates[i].append(j) }
            }
        }
        var kept = [Bool](repeating: false, count: contours.count)
        var result: [Contour] = []
        for (index, contour) in contours.enumerated() {
            let copy = candidates[index].contains { kept[$0] && contour.intersectionOverUnion(with: contours[$0]) >= threshold }
            if !copy {
                kept[index] = true
                result.append(contour)
            }
        }
        return result
    }
}
