import Foundation
import Testing
import Visage

/// The post-processing (anchors, decoding, weighted NMS, letterbox projection) fed with the raw tensors
/// LiteRT computed, against MediaPipe's own detections of the same photos.
@Suite struct DetectionDecodingTests {
    static let photoNames = DetectorFixtures.shared.photos.map(\.image)

    @Test func anchorCountsMatchTheModelOutputs() {
        #expect(DetectorVariant.shortRange.anchorOptions.anchors().count == 896)
        #expect(DetectorVariant.fullRange.anchorOptions.anchors().count == 2304)
    }

    /// Raw scores skipped without `exp` must be exactly those whose sigmoid falls below the threshold:
    /// a sweep of raw scores across each threshold's logit keeps the anchors the plain test keeps.
    @Test(arguments: [Float(0.5), 0.6, 0.999, 0, 1])
    func scoreThresholdIsExact(threshold: Float) {
        let count = 2001
        let raw = (0..<count).map { index -> Float in
            let centre = threshold > 0 && threshold < 1 ? log(threshold / (1 - threshold)) : 0
            return centre + Float(index - count / 2) * 2e-5
        } + [.nan]
        let anchors = [Anchor](repeating: Anchor(xCenter: 0.5, yCenter: 0.5, width: 1, height: 1), count: raw.count)
        let decoder = DetectionDecoder(anchors: anchors, inputWidth: 128, inputHeight: 128, scoreThreshold: threshold)
        let regressors = [Float](repeating: 1, count: raw.count * DetectionDecoder.valuesPerAnchor)
        let kept = regressors.withUnsafeBufferPointer { r in raw.withUnsafeBufferPointer { decoder.decode(regressors: r, classificators: $0) } }
        let scores = raw.map { 1 / (1 + exp(-min(max($0, -100), 100))) }
        #expect(kept.map(\.score) == scores.filter { $0 >= threshold })
    }

    /// Decoding + NMS + projection of the raw tensors, as the pipeline does it.
    static func detections(_ photo: DetectorFixtures.Photo, _ variant: DetectorVariant) throws -> [Detection] {
        let tensors = photo.tensors(variant)
        let regressors = try DetectorFixtures.floats(tensors.regressors)
        let classificators = try DetectorFixtures.floats(tensors.classificators)
        let decoded = regressors.withUnsafeBufferPointer { r in
            classificators.withUnsafeBufferPointer { c in variant.decoder.decode(regressors: r, classificators: c) }
        }
        let window = DetectionWindow.letterbox(width: photo.width, height: photo.height)
        return weightedNonMaxSuppression(decoded, threshold: DetectorVariant.suppressionThreshold).map(window.project)
    }

    @Test(arguments: photoNames, [DetectorVariant.shortRange, .fullRange])
    func matchesMediaPipeSolution(photoName: String, variant: DetectorVariant) throws {
        let photo = DetectorFixtures.photo(photoName)
        try DetectorFixtures.expect(try Self.detections(photo, variant), toMatch: photo.tensors(variant).solution, scoreTolerance: 0.001)
    }

    /// MediaPipe tasks' FaceDetector reports boxes in whole pixels, truncated towards zero.
    @Test(arguments: photoNames)
    func matchesMediaPipeTasks(photoName: String) throws {
        let photo = DetectorFixtures.photo(photoName)
        let expected = try #require(photo.shortRange.tasks)
        let actual = try Self.detections(photo, .shortRange)
        try #require(actual.count == expected.count)
        let (width, height) = (Double(photo.width), Double(photo.height))
        for (ours, theirs) in zip(actual, expected) {
            let pixels = [Double(ours.xMin) * width, Double(ours.yMin) * height, Double(ours.width) * width, Double(ours.height) * height]
            for (value, truncated) in zip(pixels, theirs.pixelBox) {
                // Within 0.002 of the image size, on top of MediaPipe's truncation to whole pixels.
                #expect(value >= Double(truncated) - 0.002 * width && value < Double(truncated + 1) + 0.002 * width,
                        "pixel box \(pixels) vs \(theirs.pixelBox)")
            }
            for (point, reference) in zip(ours.keypoints, theirs.keypoints) {
                #expect(abs(Double(point.x) - reference[0]) <= 0.002 && abs(Double(point.y) - reference[1]) <= 0.002)
            }
            #expect(abs(Double(ours.score) - theirs.score) <= 0.001)
        }
    }
}
