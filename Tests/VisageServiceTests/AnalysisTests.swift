import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import Visage
import VisageService

/// The real models behind the routes: answers equal to the command line's on the same image.
@Suite(.serialized) struct AnalysisTests {
    typealias T = ServiceTesting

    /// The JSON object without the members the two front ends may differ in (`image` names, `timings`),
    /// re-encoded with sorted keys.
    static func normalized(_ data: Data, dropping: Set<String> = ["timings", "image"]) throws -> String {
        var object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        for key in dropping { object[key] = nil }
        return String(decoding: try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]), as: UTF8.self)
    }

    @Test func facesEqualTheCLIsForRawMultipartAndJSONUploads() async throws {
        let cli = try CLI.run(["detect", "--json", "--landmarks", "--contours", "--classify", "--quality", "--mesh", "Samples/astronaut.png"])
        #expect(cli.status == 0, "\(cli.stderr)")
        let expected = try Self.normalized(Data(cli.stdout.utf8))
        let image = try T.sample("astronaut.png")
        let app = try buildApplication(T.configuration())
        try await app.test(.router) { client in
            let query = "/v1/faces?features=landmarks,contours,classify,quality,mesh"
            let raw = try await client.execute(uri: query, method: .post, headers: [.contentType: "image/png"], body: ByteBuffer(bytes: image))
            #expect(raw.status == .ok)
            T.expectDocumented(raw, "POST", "/v1/faces")
            #expect(try Self.normalized(Data(buffer: raw.body)) == expected)
            let record = try JSONDecoder().decode(FacesRecord.self, from: Data(buffer: raw.body))
            #expect(record.faces.count == 1)
            #expect(record.timings?.map(\.stage) == ["decode", "detect", "mesh"])

            let (form, type) = T.multipart([("image", "astronaut.png", image), ("features", nil, Data("landmarks,contours,classify,quality,mesh".utf8))])
            let multipart = try await client.execute(uri: "/v1/faces", method: .post, headers: [.contentType: type], body: form)
            #expect(try Self.normalized(Data(buffer: multipart.body)) == expected)

            let body = try JSONSerialization.data(withJSONObject: [
                "image": image.base64EncodedString(), "features": ["landmarks", "contours", "classify", "quality", "mesh"],
            ])
            let json = try await client.execute(uri: "/v1/faces", method: .post, headers: [.contentType: "application/json"], body: ByteBuffer(bytes: body))
            #expect(try Self.normalized(Data(buffer: json.body)) == expected)

            // The detector alone, as `visage detect --json` without flags.
            let plain = try CLI.run(["detect", "--json", "--mode", "accurate", "--min-face-size", "0.05", "Samples/astronaut.png"])
            let boxes = try await client.execute(
                uri: "/v1/faces?mode=accurate&minFaceSize=0.05", method: .post, headers: [.contentType: "image/png"], body: ByteBuffer(bytes: image))
            #expect(try Self.normalized(Data(buffer: boxes.body)) == Self.normalized(Data(plain.stdout.utf8)))
        }
    }

    /// A JPEG large enough to shrink on load (2560×1920: 1/8 still gives the detector twice its input)
    /// goes the CLI's way too, through the same call: since session 16 from the pixels the detector's warp
    /// reads alone (`JPEGSparseDecoder`), so the boxes are `visage detect`'s to the last digit.
    @Test func fastDetectionOfALargeJPEGEqualsTheCLIs() async throws {
        let source = try Image(data: Data(contentsOf: T.samples.appendingPathComponent("../Tests/VisageTests/Fixtures/landmarks/astronaut.jpg")))
        let large = try source.resized(width: 2560, height: 1920, method: .bilinear)
        let image = Data(try JPEGCodec.encode(large, quality: 90))
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("visage-large-\(UUID().uuidString).jpg")
        defer { try? FileManager.default.removeItem(at: url) }
        try image.write(to: url)
        let cli = try CLI.run(["detect", "--json", url.path])
        #expect(cli.status == 0, "\(cli.stderr)")
        let app = try buildApplication(T.configuration())
        try await app.test(.router) { client in
            let response = try await client.execute(uri: "/v1/faces", method: .post, headers: [.contentType: "image/jpeg"], body: ByteBuffer(bytes: image))
            #expect(response.status == .ok)
            #expect(try Self.normalized(Data(buffer: response.body)) == Self.normalized(Data(cli.stdout.utf8)))
            let record = try JSONDecoder().decode(FacesRecord.self, from: Data(buffer: response.body))
            #expect((record.width, record.height, record.faces.count) == (2560, 1920, 1))
        }
    }

    /// The default request (fast mode, no features) on a JPEG: decoded reduced, as `visage detect` decodes
    /// it, so both give the same record; the pixel limit still counts the picture's own pixels.
    @Test func fastDetectionOfAJPEGEqualsTheCLIs() async throws {
        let path = "Tests/VisageTests/Fixtures/landmarks/astronaut.jpg"   // 640×480, the benchmark's image
        let cli = try CLI.run(["detect", "--json", path])
        #expect(cli.status == 0, "\(cli.stderr)")
        let image = try Data(contentsOf: T.samples.appendingPathComponent("../\(path)"))
        let app = try buildApplication(T.configuration { $0.maxPixels = 640 * 480 })
        try await app.test(.router) { client in
            let response = try await client.execute(uri: "/v1/faces", method: .post, headers: [.contentType: "image/jpeg"], body: ByteBuffer(bytes: image))
            #expect(response.status == .ok)
            #expect(try Self.normalized(Data(buffer: response.body)) == Self.normalized(Data(cli.stdout.utf8)))
            let record = try JSONDecoder().decode(FacesRecord.self, from: Data(buffer: response.body))
            #expect((record.width, record.height, record.faces.count) == (640, 480, 1))
            #expect(record.timings?.map(\.stage) == ["decode", "detect"])
        }
        let strict = try buildApplication(T.configuration { $0.maxPixels = 640 * 480 - 1 })
        try await strict.test(.router) { client in
            let response = try await client.execute(uri: "/v1/faces", method: .post, headers: [.contentType: "image/jpeg"], body: ByteBuffer(bytes: image))
            #expect(response.status == .unprocessableContent)
            #expect(T.errorCode(response) == "image_too_large")
        }
    }

    /// Which requests run on the request's own thread (``FaceAnalyzing/isBrief(faces:data:)``): fast
    /// detection without the mesh stage, on a JPEG of at most 512 KiB; nothing else.
    @Test func briefRequestsAreSmallJPEGsInFastModeWithoutTheMesh() throws {
        let analyzer = VisageAnalyzer()
        let jpeg = try Data(contentsOf: T.samples.appendingPathComponent("../Tests/VisageTests/Fixtures/landmarks/astronaut.jpg"))
        var accurate = FaceOptions()
        accurate.mode = .accurate
        var landmarks = FaceOptions()
        landmarks.features = [.landmarks]
        #expect(analyzer.isBrief(faces: FaceOptions(), data: jpeg))
        #expect(analyzer.isBrief(faces: FaceOptions(), data: jpeg + Data(count: (512 << 10) - jpeg.count)))
        #expect(!analyzer.isBrief(faces: FaceOptions(), data: jpeg + Data(count: (512 << 10) - jpeg.count + 1)))
        #expect(!analyzer.isBrief(faces: accurate, data: jpeg))
        #expect(!analyzer.isBrief(faces: landmarks, data: jpeg))
        #expect(!analyzer.isBrief(faces: FaceOptions(), data: Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) + jpeg))
        // The same header marked progressive (SOF2 for SOF0): libjpeg then decodes every coefficient.
        let sof0 = try #require(jpeg.indices.first { jpeg[$0] == 0xFF && jpeg[$0 + 1] == 0xC0 })
        var progressive = jpeg
        progressive[sof0 + 1] = 0xC2
        #expect(!analyzer.isBrief(faces: FaceOptions(), data: progressive))
        // Not a JPEG past its first bytes: its header cannot be read.
        #expect(!analyzer.isBrief(faces: FaceOptions(), data: Data([0xFF, 0xD8, 0xFF, 0xE0, 0x00])))
    }

    @Test func noFaceIsAnEmptyListAndBadImagesAre422() async throws {
        let app = try buildApplication(T.configuration { $0.maxPixels = 400 * 400 })
        try await app.test(.router) { client in
            let coins = try T.sample("coins.png")   // 384×303, no face
            let none = try await client.execute(uri: "/v1/faces", method: .post, headers: [.contentType: "image/png"], body: ByteBuffer(bytes: coins))
            #expect(none.status == .ok)
            #expect((T.json(none)?["faces"] as? [Any])?.isEmpty == true)
            T.expectDocumented(none, "POST", "/v1/faces")

            let astronaut = try T.sample("astronaut.png")   // 512×512 > the 160 000-pixel limit
            let cases: [(Data, String)] = [(astronaut, "image_too_large"), (coins.prefix(coins.count / 2), "truncated_image"), (Data(), "empty_image")]
            for (bytes, code) in cases {
                let response = try await client.execute(uri: "/v1/faces", method: .post, headers: [.contentType: "image/png"], body: ByteBuffer(bytes: bytes))
                #expect(response.status == .unprocessableContent, "\(code)")
                #expect(T.errorCode(response) == code)
                T.expectDocumented(response, "POST", "/v1/faces")
            }
        }
    }

    @Test func contoursEqualTheCLIsAndRenderAsSVGAndPNG() async throws {
        let cli = try CLI.run(["contours", "Samples/coins.png", "--contrast-pivot", "auto", "--epsilon", "0.002", "--json"])
        #expect(cli.status == 0, "\(cli.stderr)")
        let image = try T.sample("coins.png")
        let app = try buildApplication(T.configuration())
        try await app.test(.router) { client in
            let json = try await client.execute(
                uri: "/v1/contours?contrastPivot=auto&epsilon=0.002", method: .post, headers: [.contentType: "image/png"], body: ByteBuffer(bytes: image))
            #expect(json.status == .ok)
            T.expectDocumented(json, "POST", "/v1/contours")
            #expect(try Self.normalized(Data(buffer: json.body)) == Self.normalized(Data(cli.stdout.utf8)))

            let svg = try await client.execute(
                uri: "/v1/contours", method: .post, headers: [.contentType: "image/png", .accept: "image/svg+xml"], body: ByteBuffer(bytes: image))
            #expect(svg.headers[.contentType] == "image/svg+xml")
            #expect(String(buffer: svg.body).contains("<svg"))
            let png = try await client.execute(
                uri: "/v1/contours?art=true&steps=2&overlay=true", method: .post, headers: [.contentType: "image/png", .accept: "image/png"],
                body: ByteBuffer(bytes: image))
            #expect(png.headers[.contentType] == "image/png")
            let decoded = try Image(data: Data(buffer: png.body))
            #expect((decoded.width, decoded.height) == (384, 303))
            T.expectDocumented(png, "POST", "/v1/contours")
        }
    }

    @Test func annotateDrawsTheLayersAskedFor() async throws {
        let image = try T.sample("astronaut.png")
        let app = try buildApplication(T.configuration())
        try await app.test(.router) { client in
            let png = try await client.execute(
                uri: "/v1/annotate", method: .post, headers: [.contentType: "image/png"], body: ByteBuffer(bytes: image))
            #expect(png.status == .ok)
            #expect(png.headers[.contentType] == "image/png")
            let decoded = try Image(data: Data(buffer: png.body))
            #expect((decoded.width, decoded.height) == (512, 512))
            let plain = try await client.execute(
                uri: "/v1/annotate", method: .post, headers: [.contentType: "image/png", .accept: "image/svg+xml"], body: ByteBuffer(bytes: image))
            let mesh = try await client.execute(
                uri: "/v1/annotate?features=mesh", method: .post, headers: [.contentType: "image/png", .accept: "image/svg+xml"], body: ByteBuffer(bytes: image))
            T.expectDocumented(mesh, "POST", "/v1/annotate")
            // The mesh layer adds its 478 points to the drawing.
            let circles = { (text: String) in text.components(separatedBy: "<circle").count - 1 }
            #expect(circles(String(buffer: mesh.body)) >= circles(String(buffer: plain.body)) + 478)
        }
    }
}
