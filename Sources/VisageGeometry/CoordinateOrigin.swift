/// Where pixel coordinates start. Vision's normalized coordinates start at the lower left;
/// pixel buffers, ML Kit and most image tools start at the upper left.
///
/// Every conversion that takes an origin defaults to `.lowerLeft`, Apple's rule; ask for `.upperLeft`
/// by name. Results that are pixels from the upper left by design (ML Kit's `Face.frame`, a mesh's
/// `pixel(_:)`, a tracked face's `frame`) say so in their documentation.
public enum CoordinateOrigin: Sendable, Hashable, Codable {
    case lowerLeft
    case upperLeft
}
