import VisageGeometry

extension ImageOrientation {
    /// The EXIF orientation equal to HEIF's transformations as MIAF orders them: `irot` (quarter turns
    /// counter-clockwise) first, then `imir` (0: top and bottom exchanged, 1: left and right; nil: none).
    package init(quarterTurnsCounterClockwise turns: Int, mirror: Int?) {
        func transform(_ point: (Double, Double)) -> (Double, Double) {
            var (x, y) = point
            for _ in 0..<((turns % 4 + 4) % 4) { (x, y) = (y, 1 - x) }
            switch mirror {
            case 0: y = 1 - y
            case 1: x = 1 - x
            default: break
            }
            return (x, y)
        }
        let corners = [(0.0, 0.0), (1.0, 0.0), (0.0, 1.0)]
        self = Self.allCases.first { orientation in
            corners.allSatisfy { corner in
                let expected = transform(corner)
                let mapped = orientation.uprightUnitPoint(fromRaw: corner.0, corner.1)
                return mapped.u == expected.0 && mapped.v == expected.1
            }
        } ?? .up
    }

    /// The orientation that undoes this one: the quarter turns exchange, the rest are their own inverse.
    package var inverse: ImageOrientation {
        switch self {
        case .right: .left
        case .left: .right
        default: self
        }
    }
}
