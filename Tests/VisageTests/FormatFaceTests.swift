import Foundation
import Testing
import Visage

/// The same photo in every format gives the same face: Scripts/make-format-fixtures.py wrote the 256-px
/// astronaut as a PNG and, at JPEG-like quality, as HEIC, AVIF, WebP, TIFF (JPEG-compressed), GIF and BMP
/// (both 256 colours).
@Suite struct FormatFaceTests {
    static func url(_ name: String) -> URL {
        Bundle.module.url(forResource: "Fixtures", withExtension: nil)!.appendingPathComponent("formats/" + name)
    }

    static func face(_ name: String) throws -> Face {
        let image = try Image(contentsOf: url(name))
        let faces = try FaceDetector(options: .init(performanceMode: .fast)).process(image)
        return try #require(faces.count == 1 ? faces.first : nil, "\(name): \(faces.count) faces")
    }

    @Test(arguments: ["astronaut.heic", "astronaut.avif", "astronaut.webp", "astronaut.tiff", "astronaut.gif", "astronaut.bmp"])
    func sameFaceAsThePNG(_ name: String) throws {
        let format = try ImageFileInfo.read(contentsOf: Self.url(name)).format
        if !format.availability.isAvailable { print("\(name) skipped: \(format.availability.problem ?? "")"); return }
        let reference = try Self.face("astronaut.png")
        let face = try Self.face(name)
        let edges = [
            (face.frame.minX, reference.frame.minX), (face.frame.minY, reference.frame.minY),
            (face.frame.maxX, reference.frame.maxX), (face.frame.maxY, reference.frame.maxY),
        ]
        let largest = edges.map { abs(Double($0.0 - $0.1)) }.max()!
        print("\(name): face \(face.frame), PNG \(reference.frame), largest edge difference \(largest) px")
        #expect(largest <= 2, "\(name)")
        for keypoint in [FaceKeypoint.leftEye, .rightEye, .noseTip] {
            let a = try #require(face.keypoints[keypoint]), b = try #require(reference.keypoints[keypoint])
            #expect(abs(Double(a.x - b.x)) <= 2 && abs(Double(a.y - b.y)) <= 2, "\(name) \(keypoint)")
        }
    }
}
