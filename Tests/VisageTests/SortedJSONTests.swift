import Foundation
import Testing
import Visage

/// `SortedJSON` must write `JSONEncoder`'s bytes (sorted keys, slashes unescaped): the CLI's `--json`
/// and every service answer go through it, and the service's wire tests compare the two byte for byte.
@Suite struct SortedJSONTests {
    /// JSONEncoder's bytes and SortedJSON's fast path (not its fallback), which must be equal.
    static func expectSame<T: Encodable>(_ value: T, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let reference = try SortedJSON.reference.encode(value)
        let fast = try SortedJSON.fastBytes(value)
        #expect(
            String(decoding: fast, as: UTF8.self) == String(decoding: reference, as: UTF8.self), sourceLocation: sourceLocation)
        #expect(try SortedJSON.encode(value) == reference, sourceLocation: sourceLocation)
        #expect(try SortedJSON.line(value) == reference + Data("\n".utf8), sourceLocation: sourceLocation)
    }

    static let numbers: [Double] = [
        0, -0.0, 1, -1, 480, 640.5, 0.1, 1.0 / 3, -2.394386113311393, 1e-7, 1.5e-300, 5e-324, 1e15, 1e16, 1e21, 123456789012345678,
        .pi, .greatestFiniteMagnitude, -.greatestFiniteMagnitude, .leastNormalMagnitude,
    ]
    static let floats: [Float] = [0, -0.0, 1, 0.92084837, 0.5, 1e-8, 3.4e38, 16_777_216, 0.1, .leastNonzeroMagnitude]

    /// A face with every member present, its numbers drawn from the awkward ones above.
    static func fullFace(_ seed: Int) -> FaceRecord {
        func d(_ i: Int) -> Double { numbers[(seed + i) % numbers.count] }
        func f(_ i: Int) -> Float { floats[(seed + i) % floats.count] }
        func p(_ i: Int) -> FaceRecord.Point { .init(x: d(i), y: d(i + 1)) }
        var face = FaceRecord(
            frame: .init(x: d(0), y: d(1), width: d(2), height: d(3)), boundingBox: .init(x: d(4), y: d(5), width: d(6), height: d(7)),
            confidence: f(0), roll: d(8), yaw: d(9), pitch: d(10),
            keypoints: ["rightEye": p(1), "leftEye": p(2), "noseTip": p(3), "mouthCenter": p(4), "rightEarTragion": p(5), "leftEarTragion": p(6)])
        face.landmarks = ["faceContour": [p(1), p(2), p(3)], "leftEye": [], "rightPupil": [p(7)], "outerLips": [p(8), p(9)]]
        face.mlkitLandmarks = ["leftCheek": p(3), "noseBase": p(4), "mouthBottom": p(5)]
        face.contours = ["face": [p(2), p(3)], "leftEyebrowTop": [p(4)], "upperLipBottom": []]
        face.mesh = (0..<7).map { .init(x: d($0), y: d($0 + 3), z: d($0 + 5)) }
        face.blendshapes = ["eyeBlinkLeft": f(1), "_neutral": f(2), "mouthSmileRight": f(3), "browDownLeft": f(4)]
        face.smilingProbability = f(5)
        face.leftEyeOpenProbability = f(6)
        face.rightEyeOpenProbability = f(7)
        face.captureQuality = f(8)
        return face
    }

    @Test func facesRecordsWithEveryMemberPresentAndEachAbsentAreJSONEncodersBytes() throws {
        for seed in 0..<Self.numbers.count {
            let full = Self.fullFace(seed)
            var variants = [full]
            for drop in 0..<9 {
                var face = full
                switch drop {
                case 0: face.landmarks = nil
                case 1: face.mlkitLandmarks = nil
                case 2: face.contours = nil
                case 3: face.mesh = nil
                case 4: face.blendshapes = nil
                case 5: face.smilingProbability = nil
                case 6: face.leftEyeOpenProbability = nil
                case 7: face.rightEyeOpenProbability = nil
                default: face.captureQuality = nil
                }
                variants.append(face)
            }
            var bare = full
            (bare.landmarks, bare.mlkitLandmarks, bare.contours, bare.mesh, bare.blendshapes) = (nil, nil, nil, nil, nil)
            (bare.smilingProbability, bare.leftEyeOpenProbability, bare.rightEyeOpenProbability, bare.captureQuality) = (nil, nil, nil, nil)
            bare.keypoints = [:]
            variants.append(bare)
            for face in variants { try Self.expectSame(face) }
            let timings = [StageTiming(stage: "decode", milliseconds: Self.numbers[seed]), .init(stage: "detect", milliseconds: 2)]
            try Self.expectSame(FacesRecord(image: "a/b \"c\"\n.jpg", width: 640, height: 480, faces: variants, timings: timings))
            try Self.expectSame(FacesRecord(image: "none", width: 1, height: 1, faces: []))
            try Self.expectSame(["results": [FacesRecord(image: "x", width: 2, height: 3, faces: [full])]])
        }
    }

    /// The face record is written member by member (not through `Encodable`): a member added to it, or
    /// to its geometry, must be written there too, and this count fails until it is.
    @Test func theFaceWriterKnowsEveryMember() {
        let face = Self.fullFace(0)
        #expect(Mirror(reflecting: FacesRecord(image: "", width: 0, height: 0, faces: [])).children.count == 5)
        #expect(Mirror(reflecting: StageTiming(stage: "", milliseconds: 0)).children.count == 2)
        #expect(Mirror(reflecting: face).children.count == 16)
        #expect(Mirror(reflecting: face.frame).children.count == 4)
        #expect(Mirror(reflecting: face.keypoints.first!.value).children.count == 2)
        #expect(Mirror(reflecting: face.mesh![0]).children.count == 3)
    }

    @Test func recordsFromTheDetectorWithEveryFeatureAreJSONEncodersBytes() throws {
        let url = Bundle.module.url(forResource: "Fixtures", withExtension: nil)!.appendingPathComponent("landmarks/astronaut.jpg")
        let image = try Image(contentsOf: url)
        let features: FaceFeatures = [.landmarks, .contours, .classify, .quality, .mesh]
        let detector = FaceDetector(options: .init(landmarkMode: .all, contourMode: .all, classificationMode: .all))
        let record = try FacesRecord(analyzing: image, named: url.path, detector: detector, features: features)
        #expect(record.faces.count == 1 && record.faces[0].mesh?.count == 478)
        try Self.expectSame(record)
        try Self.expectSame(ErrorRecord(code: .payloadTooLarge, message: "the body is larger than 20 MiB / \u{1}"))
        try Self.expectSame(TrackingFrameRecord(frame: 3, time: 0.1, faces: [], events: nil, skipped: 2))
    }

    struct Scalars: Codable {
        var doubles: [Double]
        var floats: [Float]
        var optionals: [Double?]
        var ints: [Int]
        var small: [Int8]
        var unsigned: [UInt64]
        var flags: [Bool]
        var single: Float
        var absent: String?
        var present: Int?
        var nested: [[String: [Int]]]
    }

    @Test func numbersIntegersAndOptionalsAreWrittenAsJSONEncoderWritesThem() throws {
        try Self.expectSame(Scalars(
            doubles: Self.numbers, floats: Self.floats, optionals: [nil, 1.5, nil], ints: [.min, -1, 0, .max], small: [.min, .max],
            unsigned: [0, .max], flags: [true, false], single: 0.92084837, absent: nil, present: 7,
            nested: [["b": [1, 2]], ["a": []], [:]]))
        for number in Self.numbers { try Self.expectSame(number) }
        for number in Self.floats { try Self.expectSame(number) }
        try Self.expectSame([Double]())
    }

    @Test func stringsAndKeysAreEscapedAndSortedAsJSONEncoderDoesIt() throws {
        var text = String((0..<128).map { Character(Unicode.Scalar(UInt8($0))) })
        text += "é😀\u{2028}\u{2029}\u{FEFF}/\\\"a/b"
        try Self.expectSame(text)
        try Self.expectSame([text: text, "b": "B", "B": "b", "a": "", "_": "_", "aa": "z", "é": "e", "Z": "", "10": "", "9": "", "": "empty"])
        try Self.expectSame([1: "one", 10: "ten", 2: "two"])
    }

    struct Twice: Encodable {
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Key.self)
            try container.encode(1, forKey: .a)
            try container.encode(2, forKey: .a)
        }
        enum Key: CodingKey { case a }
    }

    struct Nested: Encodable {
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Key.self)
            var inner = container.nestedContainer(keyedBy: Key.self, forKey: .a)
            try inner.encode("x", forKey: .a)
        }
        enum Key: CodingKey { case a }
    }

    struct Nothing: Encodable {
        func encode(to encoder: any Encoder) throws {}
    }

    struct Special: Encodable {
        var date = Date(timeIntervalSinceReferenceDate: 12.5)
        var data = Data([0, 1, 2, 255])
        var url = URL(string: "https://example.com/a?b=c")!
    }

    /// What the fast path does not write as JSONEncoder would is JSONEncoder's to write (or refuse).
    @Test func whatTheFastPathLeavesIsWrittenOrRefusedByJSONEncoder() throws {
        for value in [Twice() as any Encodable, Nested(), Special(), ["n": Special()]] {
            #expect(throws: SortedJSON.Unsupported.self) { try SortedJSON.fastBytes(value) }
            #expect(try SortedJSON.encode(value) == SortedJSON.reference.encode(value))
            #expect(try SortedJSON.line(value) == SortedJSON.reference.encode(value) + Data("\n".utf8))
        }
        #expect(String(decoding: try SortedJSON.encode(Twice()), as: UTF8.self) == #"{"a":2}"#)
        for value in [Double.nan as any Encodable, [Float.infinity], Nothing()] {
            #expect(throws: EncodingError.self) { try SortedJSON.encode(value) }
        }
        var face = Self.fullFace(1)
        face.mesh![3].z = .nan
        #expect(throws: EncodingError.self) { try SortedJSON.encode(face) }
        #expect(throws: EncodingError.self) { try SortedJSON.line(FacesRecord(image: "a", width: 1, height: 1, faces: [face])) }
    }
}
