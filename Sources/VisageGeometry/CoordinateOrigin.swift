/// Where pixel coordinates start. Vision's normalized coordinates start at the lower left;
/// pixel buffers, ML Kit and most image tools start at the upper left.
public enum CoordinateOrigin: Sendable, Hashable, Codable {
    case lowerLeft
    case upperLeft
}
