import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
import Visage
import VisageService

/// The bad-input corpus (Tests/Corpus) through the service, on a live server (AsyncHTTPClient over
/// loopback) with the real models: each image posted to `POST /v1/faces` is answered with the code its
/// manifest names (as the library and the CLI give it, VisageTests and VisageCLITests), with that code's
/// HTTP status, in the documented error shape, within a time bound; "ok" files are answered 200. Video
/// streams and models are not service inputs (`/v1/track` takes JPEG or PNG frames, as these files are).
@Suite(.serialized) struct BadInputCorpusServiceTests {
    typealias T = ServiceTesting

    struct Entry: Decodable {
        var file, kind, expect, why: String
    }

    static let folder = CLI.packageRoot.appendingPathComponent("Tests/Corpus")

    /// One request, debug build, on a shared 2-core machine (decodable files run the detector).
    static let timeLimit = Duration.seconds(20)

    @available(macOS 15, *)
    @Test func everyCorpusImageGetsTheLibrarysCodeOverHTTP() async throws {
        struct Manifest: Decodable { var entries: [Entry] }
        let manifest = try JSONDecoder().decode(Manifest.self, from: Data(contentsOf: Self.folder.appendingPathComponent("manifest.json")))
        let images = manifest.entries.filter { $0.kind == "image" }
        #expect(images.count >= 50)
        // The library's pixel limit (the service's default is 50 MP, which refuses the 100 MP files as
        // image_too_large): the same limits give the same codes. One inference at a time.
        let app = try buildApplication(T.configuration {
            $0.maxConcurrentInferences = 1
            $0.maxPixels = ImageDecodingOptions.defaultPixelLimit
        })
        try await T.live(app, .ahc(.http), limit: .seconds(300)) { client in
            try await T.waitUntilReady(client)
            for entry in images {
                // FileHandle, not Data(contentsOf:), which leaks its read buffer for the corpus's empty
                // files (FUZZING.md, finding 3).
                let handle = try FileHandle(forReadingFrom: Self.folder.appendingPathComponent(entry.file))
                let data = try handle.readToEnd() ?? Data()
                try handle.close()
                let start = ContinuousClock.now
                // A connection per file: the service closes the connection after each analysis answer
                // without announcing it, which a pooled connection's next request would meet.
                let response = try await client.execute(
                    uri: "/v1/faces", method: .post, headers: [.contentType: "application/octet-stream", .connection: "close"],
                    body: ByteBuffer(bytes: data))
                let elapsed = ContinuousClock.now - start
                #expect(elapsed < Self.timeLimit, "\(entry.file) took \(elapsed)")
                if entry.expect == "ok" {
                    #expect(response.status == .ok, "\(entry.file): \(response.status) \(String(buffer: response.body).prefix(200))")
                    continue
                }
                let code = try #require(ErrorCode(rawValue: entry.expect), "\(entry.file): \(entry.expect)")
                #expect(T.errorCode(response) == entry.expect, "\(entry.file) (\(entry.why)): \(String(buffer: response.body).prefix(200))")
                #expect(Int(response.status.code) == code.httpStatus, "\(entry.file): \(response.status)")
            }
        }
    }
}
