import Foundation
import Testing
import Visage

/// `visage detect` through the built binary: text and JSON output, the landmark flags, annotation,
/// and the exit codes a script relies on.
@Suite(.serialized)
struct DetectCommandTests {
    static func json(_ result: CLIRunner.Result) throws -> [[String: Any]] {
        try result.stdout.split(separator: "\n").map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        }
    }

    static func face(_ record: [String: Any]) throws -> [String: Any] {
        let faces = try #require(record["faces"] as? [[String: Any]])
        try #require(faces.count == 1)
        return faces[0]
    }

    @Test func textSummaryOfASample() throws {
        let result = try CLIRunner.run(["detect", "Samples/astronaut.png"])
        #expect(result.status == 0 && result.stderr.isEmpty)
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.first == "Samples/astronaut.png (512×512): 1 face found")
        #expect(lines.count == 2 && lines[1].hasPrefix("  face 1: x 178, y 83, 95×95 px, confidence 0.92, roll "))
    }

    @Test func jsonHasTheDetectorFieldsAndNothingElse() throws {
        let result = try CLIRunner.run(["detect", "--json", "Samples/astronaut.png"])
        #expect(result.status == 0)
        let records = try Self.json(result)
        try #require(records.count == 1)
        #expect(records[0]["image"] as? String == "Samples/astronaut.png")
        #expect(records[0]["width"] as? Int == 512 && records[0]["height"] as? Int == 512)
        let face = try Self.face(records[0])
        #expect(Set(face.keys) == ["frame", "boundingBox", "confidence", "roll", "yaw", "pitch", "keypoints"])
        let keypoints = try #require(face["keypoints"] as? [String: [String: Double]])
        #expect(Set(keypoints.keys) == ["rightEye", "leftEye", "noseTip", "mouthCenter", "rightEarTragion", "leftEarTragion"])
    }

    /// The CLI prints the library's one schema: every line decodes as a `FacesRecord`.
    @Test func jsonIsTheLibrarySchema() throws {
        let result = try CLIRunner.run(["detect", "--json", "--landmarks", "--classify", "Samples/astronaut.png", "Samples/coins.png"])
        #expect(result.status == 0)
        let records = try result.stdout.split(separator: "\n").map { try JSONDecoder().decode(FacesRecord.self, from: Data($0.utf8)) }
        #expect(records.map(\.image) == ["Samples/astronaut.png", "Samples/coins.png"])
        #expect(records[0].faces.count == 1 && records[0].faces[0].landmarks?.count == 12 && records[0].faces[0].blendshapes != nil)
        #expect(records[1].faces.isEmpty)
    }

    /// Every flag adds its fields, in pixels inside the face's neighbourhood, with ML Kit's counts.
    @Test func landmarkFlagsAddTheirFields() throws {
        let result = try CLIRunner.run([
            "detect", "--json", "--landmarks", "--contours", "--classify", "--quality", "--mesh", "Samples/astronaut.png",
        ])
        #expect(result.status == 0 && result.stderr.isEmpty)
        let face = try Self.face(try #require(try Self.json(result).first))
        let frame = try #require(face["frame"] as? [String: Double])
        let (x, y, w, h) = (frame["x"]!, frame["y"]!, frame["width"]!, frame["height"]!)
        func near(_ point: [String: Double]) -> Bool {
            (x - w / 2...x + 1.5 * w).contains(point["x"]!) && (y - h / 2...y + 1.5 * h).contains(point["y"]!)
        }
        let regions = try #require(face["landmarks"] as? [String: [[String: Double]]])
        #expect(Set(regions.keys) == [
            "faceContour", "leftEye", "rightEye", "leftEyebrow", "rightEyebrow", "nose", "noseCrest", "medianLine",
            "outerLips", "innerLips", "leftPupil", "rightPupil",
        ])
        #expect(regions.values.allSatisfy { $0.allSatisfy(near) })
        let mlkit = try #require(face["mlkitLandmarks"] as? [String: [String: Double]])
        #expect(mlkit.count == 10 && mlkit.values.allSatisfy(near))
        // The subject's left eye is on the picture's right.
        #expect(mlkit["leftEye"]!["x"]! > mlkit["rightEye"]!["x"]!)
        let contours = try #require(face["contours"] as? [String: [[String: Double]]])
        #expect(contours.count == 15 && contours.values.reduce(0) { $0 + $1.count } == 133)
        #expect(contours["face"]?.count == 36 && contours["upperLipTop"]?.count == 11)
        let mesh = try #require(face["mesh"] as? [[String: Double]])
        #expect(mesh.count == 478 && mesh.allSatisfy { near($0) && $0["z"] != nil })
        let blendshapes = try #require(face["blendshapes"] as? [String: Double])
        #expect(blendshapes.count == 51 && blendshapes["mouthSmileLeft"].map { $0 > 0.5 } == true)
        #expect((face["smilingProbability"] as? Double).map { $0 > 0.5 } == true)
        #expect((face["leftEyeOpenProbability"] as? Double).map { $0 > 0.5 } == true)
        #expect((face["rightEyeOpenProbability"] as? Double).map { $0 > 0.5 } == true)
        #expect((face["captureQuality"] as? Double).map { (0...1).contains($0) } == true)
    }

    @Test func eachFlagAddsOnlyItsFields() throws {
        let cases: [(String, Set<String>)] = [
            ("--landmarks", ["landmarks", "mlkitLandmarks"]), ("--contours", ["contours"]), ("--mesh", ["mesh"]),
            ("--classify", ["blendshapes", "smilingProbability", "leftEyeOpenProbability", "rightEyeOpenProbability"]),
            ("--quality", ["captureQuality"]),
        ]
        let base: Set<String> = ["frame", "boundingBox", "confidence", "roll", "yaw", "pitch", "keypoints"]
        for (flag, fields) in cases {
            let result = try CLIRunner.run(["detect", "--json", flag, "Samples/astronaut.png"])
            #expect(result.status == 0)
            let face = try Self.face(try #require(try Self.json(result).first))
            #expect(Set(face.keys) == base.union(fields), "\(flag)")
        }
    }

    @Test func textOutputNamesTheNewResults() throws {
        let result = try CLIRunner.run(["detect", "--landmarks", "--contours", "--classify", "--quality", "--mesh", "Samples/astronaut.png"])
        #expect(result.status == 0)
        let text = result.stdout
        #expect(text.contains("\n    smiling 0.") && text.contains(", left eye open 0.") && text.contains(", right eye open 0."))
        #expect(text.contains("\n    strongest blendshapes: "))
        #expect(text.contains("\n    capture quality 0."))
        #expect(text.contains("\n    landmarks: leftEye ("))
        #expect(text.contains("\n    contours: 15 with 133 points"))
        #expect(text.contains("\n    mesh: 478 points, face presence 1.00"))
    }

    @Test(arguments: ["png", "svg"])
    func annotationDrawsTheShapes(format: String) throws {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("\(UUID().uuidString).\(format)")
        defer { try? FileManager.default.removeItem(at: out) }
        let plain = try CLIRunner.run(["detect", "Samples/astronaut.png", "--annotate", out.path])
        #expect(plain.status == 0)
        let plainData = try Data(contentsOf: out)
        let result = try CLIRunner.run(["detect", "--landmarks", "--contours", "--mesh", "Samples/astronaut.png", "--annotate", out.path])
        #expect(result.status == 0)
        let data = try Data(contentsOf: out)
        #expect(data != plainData)
        if format == "svg" {
            let svg = String(decoding: data, as: UTF8.self)
            #expect(svg.contains("stroke=\"#FF8C00\"") && svg.contains("<polygon ") && svg.contains("<polyline "))
            #expect(!String(decoding: plainData, as: UTF8.self).contains("#FF8C00"))
        }
    }

    @Test func imageWithoutFacesExitsZero() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let coins = CLIRunner.packageRoot.appendingPathComponent("Samples/coins.png").path
        let text = try CLIRunner.run(["detect", "--landmarks", "--classify", coins])
        #expect(text.status == 0 && text.stdout == "\(coins) (384×303): no faces found\n")
        let json = try CLIRunner.run(["detect", "--json", "--mesh", coins])
        #expect(json.status == 0)
        let record = try #require(try Self.json(json).first)
        #expect((record["faces"] as? [Any])?.isEmpty == true)
    }

    @Test func badFileExitsOneNamingIt() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("not an image".utf8).write(to: folder.appendingPathComponent("text.png"))
        let sample = CLIRunner.packageRoot.appendingPathComponent("Samples/astronaut.png").path
        let result = try CLIRunner.run(["detect", "--json", "--landmarks", "text.png", sample], in: folder)
        #expect(result.status == 1)
        let errors = result.stderr.split(separator: "\n").map(String.init)
        #expect(errors.count == 2 && errors[0].hasPrefix("visage: text.png: "))
        #expect(errors.last == "visage: 1 of 2 files failed")
        #expect(try Self.json(result).count == 1)
    }

    @Test func usageErrorsExitTwo() throws {
        let missing = try CLIRunner.run(["detect"])
        #expect(missing.status == 2 && missing.stderr.contains("Missing expected argument"))
        let unknown = try CLIRunner.run(["detect", "--frobnicate", "Samples/astronaut.png"])
        #expect(unknown.status == 2)
        let badSize = try CLIRunner.run(["detect", "--min-face-size", "2", "Samples/astronaut.png"])
        #expect(badSize.status == 2 && badSize.stderr.contains("--min-face-size 2.0 is out of range: it must be a fraction of the image width in 0…1"))
        let badAnnotation = try CLIRunner.run(["detect", "--annotate", "out.gif", "Samples/astronaut.png"])
        #expect(badAnnotation.status == 2 && badAnnotation.stderr.contains("must end in .png or .svg"))
        let help = try CLIRunner.run(["detect", "--help"])
        #expect(help.status == 0 && help.stdout.contains("--landmarks") && help.stdout.contains("--mesh"))
    }
}
