import Foundation
import Testing
import Visage
import VisageNN

@Suite struct SchemaTests {
    @Test func featureNamesRoundTripAndUnknownNamesAreRefusedByName() throws {
        let features = try FaceFeatures(names: ["mesh", "landmarks"])
        #expect(features == [.mesh, .landmarks])
        #expect(features.names == ["landmarks", "mesh"])
        #expect(features.needsMesh && !FaceFeatures().needsMesh)
        #expect(throws: FaceDetectionError.invalidParameter(
            name: "features", value: "irises", rule: "must be one of landmarks, contours, classify, quality, mesh")) {
            try FaceFeatures(names: ["irises"])
        }
    }

    @Test("Each typed error has its stable code and HTTP status", arguments: [
        (ImageError.empty as any Error, ErrorCode.emptyImage, 422),
        (ImageError.unsupportedFormat(signature: "00 01"), .unsupportedFormat, 415),
        (ImageError.truncated(.jpeg, reason: "r"), .truncatedImage, 422),
        (ImageError.imageTooLarge(width: 1, height: 1, limit: 0), .imageTooLarge, 422),
        (FaceDetectionError.image(.corrupt(.png, reason: "r")), .corruptImage, 422),
        (ContoursError.image(.empty), .emptyImage, 422),
        (ContoursError.invalidParameter(name: "epsilon", value: "-1", rule: "r"), .invalidParameter, 400),
        (TrackingError.video(.toolMissing(tool: "ffmpeg", package: "ffmpeg")), .toolMissing, 500),
        (VideoError.truncatedFrame(index: 0, expectedBytes: 2, receivedBytes: 1), .corruptVideo, 422),
        (ModelError.unsupportedOperator(name: "SPLIT_V"), .modelUnsupported, 500),
        (ModelError.modelInvalid(reason: "r"), .modelInvalid, 500),
        (CancellationError(), .deadlineExceeded, 504),
    ] as [(any Error, ErrorCode, Int)])
    func errorCodes(error: any Error, code: ErrorCode, status: Int) {
        let record = ErrorRecord(error)
        #expect(record.code == code)
        #expect(record.code.httpStatus == status)
        #expect(record.message == "\(error)")
    }

    @Test func unknownErrorsAreInternalAndRecordsEncodeAsSnakeCaseCodes() throws {
        struct Strange: Error {}
        #expect(ErrorRecord(Strange()).code == .internalError)
        let data = try JSONEncoder().encode(ErrorRecord(code: .payloadTooLarge, message: "m"))
        #expect(String(decoding: data, as: UTF8.self).contains(#""code":"payload_too_large""#))
        #expect(Set(ErrorCode.allCases.map(\.rawValue)).count == ErrorCode.allCases.count)
    }

    @Test func facesRecordRoundTripsAndLeavesAbsentFeaturesOut() throws {
        var face = FaceRecord(
            frame: .init(x: 1, y: 2, width: 3, height: 4), boundingBox: .init(x: 0.1, y: 0.2, width: 0.3, height: 0.4),
            confidence: 0.9, roll: 1, yaw: 2, pitch: 3, keypoints: ["noseTip": .init(x: 5, y: 6)])
        face.captureQuality = 0.5
        let record = FacesRecord(image: "a.png", width: 10, height: 20, faces: [face])
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let text = String(decoding: try encoder.encode(record), as: UTF8.self)
        #expect(!text.contains("mesh") && !text.contains("timings") && text.contains(#""captureQuality":0.5"#))
        #expect(try JSONDecoder().decode(FacesRecord.self, from: Data(text.utf8)) == record)
    }
}
