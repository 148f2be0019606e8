import Foundation
import Hummingbird
import HummingbirdTesting
import HummingbirdWSTesting
import Testing
import Visage
import VisageService

/// `/v1/track` with the real tracker: a y4m clip's frames streamed as PNG messages.
@Suite struct TrackingSocketTests {
    typealias T = ServiceTesting

    static let width = 320, height = 240

    /// A y4m clip at 10 fps: the astronaut's head on a grey background for `faceFrames` frames, then
    /// the background alone. 4:4:4, BT.601 limited range.
    static func clip(faceFrames: Int, emptyFrames: Int) throws -> URL {
        let astronaut = try Image(data: try T.sample("astronaut.png")).converted(to: .rgb8)
        var head: [UInt8] = []
        for y in 50..<210 { for x in 140..<300 { head += astronaut.pixel(x: x, y: y) } }
        var data = Data("YUV4MPEG2 W\(width) H\(height) F10:1 Ip A1:1 C444\n".utf8)
        for frame in 0..<(faceFrames + emptyFrames) {
            var rgb = [UInt8](repeating: 118, count: width * height * 3)
            if frame < faceFrames {
                for row in 0..<160 {
                    for column in 0..<160 {
                        let to = ((40 + row) * width + 80 + column) * 3, from = (row * 160 + column) * 3
                        rgb[to..<(to + 3)] = head[from..<(from + 3)]
                    }
                }
            }
            var y: [UInt8] = [], u: [UInt8] = [], v: [UInt8] = []
            for index in 0..<(width * height) {
                let (r, g, b) = (Double(rgb[3 * index]), Double(rgb[3 * index + 1]), Double(rgb[3 * index + 2]))
                y.append(UInt8(max(0, min(255, (16 + 0.257 * r + 0.504 * g + 0.098 * b).rounded()))))
                u.append(UInt8(max(0, min(255, (128 - 0.148 * r - 0.291 * g + 0.439 * b).rounded()))))
                v.append(UInt8(max(0, min(255, (128 + 0.439 * r - 0.368 * g - 0.071 * b).rounded()))))
            }
            data += Data("FRAME\n".utf8) + Data(y) + Data(u) + Data(v)
        }
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("visage-serve-\(UUID().uuidString).y4m")
        try data.write(to: url)
        return url
    }

    @available(macOS 15, *)
    @Test func trackingIDsHoldWhileTheFaceStaysAndNoFaceDetectedFollowsItsLeaving() async throws {
        let url = try Self.clip(faceFrames: 6, emptyFrames: 8)
        defer { try? FileManager.default.removeItem(at: url) }
        let source = try Y4MFrameSource(path: url.path)
        var frames: [VideoFrame] = []
        while let frame = try source.nextFrame() { frames.append(frame) }
        #expect(frames.count == 14)
        let pngs = try frames.map { try $0.image.pngData() }
        let times = frames.map(\.time)

        let app = try buildApplication(T.configuration())
        try await T.live(app, limit: .seconds(300)) { client in
            try await T.waitUntilReady(client)
            let messages = TextMessages()
            try await client.ws("/v1/track", configuration: .init(maxFrameSize: 1 << 22)) { inbound, outbound, _ in
                try await outbound.write(.text(#"{"debounce": 0.3, "maxFaces": 1}"#))
                var iterator = inbound.messages(maxSize: 1 << 22).makeAsyncIterator()
                // One frame at a time, each sent once the previous is answered: none is skipped.
                for (png, time) in zip(pngs, times) {
                    try await outbound.write(.text("{\"time\": \(time)}"))
                    try await outbound.write(.binary(ByteBuffer(bytes: png)))
                    guard case .text(let text)? = try await iterator.next() else { break }
                    messages.append(text)
                }
            }
            let records = try messages.all.map { try JSONDecoder().decode(TrackingFrameRecord.self, from: Data($0.utf8)) }
            #expect(records.map(\.frame) == Array(0..<14))
            #expect(records.map(\.time) == times)
            #expect(records.allSatisfy { $0.skipped == 0 })
            // Faces are reported once presence is confirmed (after the 0.3 s debounce), with one ID while it stays.
            let events = records.flatMap { $0.events ?? [] }
            let detected = try #require(events.first { $0.event == "faceDetected" })
            #expect(detected.time <= 0.5)
            let shown = records.prefix(6).filter { $0.time >= detected.time }
            #expect(shown.count >= 2)
            #expect(shown.allSatisfy { $0.faces.count == 1 })
            let ids = Set(records.flatMap { $0.faces.map(\.trackingID) })
            #expect(ids.count == 1, "one tracking ID while the face stays: \(ids)")
            #expect(records.suffix(8).allSatisfy { $0.faces.isEmpty })
            let gone = try #require(events.first { $0.event == "noFaceDetected" })
            #expect(gone.time >= 0.6 + 0.3 - 1e-9)
            #expect(gone.time <= 1.3)
            for text in messages.all {
                let problems = OpenAPIDocument.shared.validate(
                    try JSONSerialization.jsonObject(with: Data(text.utf8)), against: ["$ref": "#/components/schemas/TrackingFrameRecord"], at: "$")
                #expect(problems.isEmpty, "\(problems)")
            }
        }
    }

    /// Runs `frames` (PNG, time) on one connection after `options`; every text message answered.
    static func exchange(_ client: some TestClientProtocol, options: String, frames: [(Data, Double)]) async throws -> [String] {
        let messages = TextMessages()
        try await client.ws("/v1/track", configuration: .init(maxFrameSize: 1 << 22)) { inbound, outbound, _ in
            try await outbound.write(.text(options))
            var iterator = inbound.messages(maxSize: 1 << 22).makeAsyncIterator()
            for (png, time) in frames {
                try await outbound.write(.text("{\"time\": \(time)}"))
                try await outbound.write(.binary(ByteBuffer(bytes: png)))
                guard case .text(let text)? = try await iterator.next() else { break }
                messages.append(text)
            }
            if frames.isEmpty, case .text(let text)? = try await iterator.next() { messages.append(text) }
        }
        return messages.all
    }

    /// The attention options' JSON: a field left out keeps its default, 0 or null turns a condition off.
    @Test func attentionOptionsDecodeAsTheFlags() throws {
        let kept = try JSONDecoder().decode(TrackAttention.self, from: Data("{}".utf8))
        #expect(kept.options == AttentionOptions())
        let off = try JSONDecoder().decode(TrackAttention.self, from: Data(#"{"eyeOpenness": null, "gazeCone": 0}"#.utf8))
        #expect(off.options == AttentionOptions(gazeCone: nil, eyeOpenness: nil))
        let zero = try JSONDecoder().decode(TrackAttention.self, from: Data(#"{"eyeOpenness": 0, "minimumDuration": 1}"#.utf8))
        #expect(zero.options == AttentionOptions(eyeOpenness: nil, minimumDuration: 1))
    }

    /// The first message's `attention` reaches the tracker: a short minimum duration reports the
    /// astronaut's attention sooner than the default 0.5 s, for anyone and for her (face 1), with the
    /// default gaze cone too, her face lines carrying her gaze and attention; a head cone of 0.01°
    /// reports none, and a cone or an eye openness out of range is refused with `invalid_parameter`.
    @available(macOS 15, *)
    @Test func attentionOptionsReachTheTracker() async throws {
        let url = try Self.clip(faceFrames: 5, emptyFrames: 0)
        defer { try? FileManager.default.removeItem(at: url) }
        let source = try Y4MFrameSource(path: url.path)
        var decoded: [(Data, Double)] = []
        while let frame = try source.nextFrame() { decoded.append((try frame.image.pngData(), frame.time)) }
        let frames = decoded

        let app = try buildApplication(T.configuration())
        try await T.live(app, limit: .seconds(300)) { client in
            try await T.waitUntilReady(client)
            func records(_ options: String) async throws -> [TrackingFrameRecord] {
                try await Self.exchange(client, options: options, frames: frames)
                    .map { try JSONDecoder().decode(TrackingFrameRecord.self, from: Data($0.utf8)) }
            }
            func events(_ options: String) async throws -> [TrackingEventRecord] {
                try await records(options).flatMap { $0.events ?? [] }
            }
            let quick = try await events(#"{"debounce": 0, "attention": {"minimumDuration": 0.2, "gazeCone": null}}"#)
            let gained = try #require(quick.first { $0.event == "attentionGained" && $0.trackingID == nil }, "\(quick)")
            #expect(gained.time >= 0.2 - 1e-9 && gained.time < 0.5 - 1e-9, "sooner than the default 0.5 s: \(gained.time)")
            // With the gaze cone (22°) on: she looks into the lens, so she gains attention as face 1 and
            // her last face line says so, with her gaze and each eye's angles.
            let watched = try await records(#"{"debounce": 0, "attention": {"minimumDuration": 0.2}}"#)
            let watchedEvents = watched.flatMap { $0.events ?? [] }
            #expect(watchedEvents.contains { $0.event == "attentionGained" && $0.trackingID == 1 }, "\(watchedEvents)")
            let face = try #require(watched.last?.faces.first)
            let gaze = try #require(face.gaze)
            #expect(face.attention == true && gaze.angleFromCamera <= 22 && gaze.lookingAtCamera > 0.5, "\(face)")
            #expect(gaze.leftEye != nil && gaze.rightEye != nil)
            let narrow = try await events(#"{"debounce": 0, "attention": {"headCone": 0.01, "gazeCone": 0, "minimumDuration": 0}}"#)
            #expect(!narrow.contains { $0.event == "attentionGained" }, "\(narrow)")

            let refused = try await Self.exchange(client, options: #"{"attention": {"gazeCone": 400}}"#, frames: [])
            let error = try #require(refused.first.flatMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] })
            let record = try #require(error["error"] as? [String: Any])
            #expect(record["code"] as? String == "invalid_parameter")
            #expect((record["message"] as? String)?.contains("attention.gazeCone") == true)
            let refusedLids = try await Self.exchange(client, options: #"{"attention": {"eyeOpenness": -1}}"#, frames: [])
            #expect(refusedLids.first?.contains("attention.eyeOpenness") == true, "\(refusedLids)")
        }
    }
}
