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
        let expected = photo.tensors(variant).solution
        let actual = try Self.detections(photo, variant)
        try #require(actual.count == expected.count)
        for (ours, theirs) in zip(actual, expected) {
            let box = [ours.xMin, ours.yMin, ours.width, ours.height].map(Double.init)
            for (a, b) in zip(box, theirs.box) { #expect(abs(a - b) <= 0.002, "box \(box) vs \(theirs.box)") }
            for (point, reference) in zip(ours.keypoints, theirs.keypoints) {
                #expect(abs(Double(point.x) - reference[0]) <= 0.002 && abs(Double(point.y) - reference[1]) <= 0.002,
                        "keypoint \(point) vs \(reference)")
            }
            #expect(abs(Double(ours.score) - theirs.score) <= 0.001)
        }
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
