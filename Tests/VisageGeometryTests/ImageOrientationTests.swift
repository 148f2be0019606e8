import Foundation
import Testing
import VisageGeometry

/// An independent definition of the eight EXIF orientations as operations on a pixel grid
/// (what a viewer does to show the stored pixels upright), used to check the unit-coordinate
/// mappings of `ImageOrientation`.
private struct Grid: Equatable {
    var width: Int, height: Int, cells: [Int]
    subscript(row: Int, column: Int) -> Int { cells[row * width + column] }

    func flippedHorizontally() -> Grid {
        Grid(width: width, height: height, cells: (0..<height).flatMap { r in (0..<width).map { c in self[r, width - 1 - c] } })
    }
    func rotatedClockwise() -> Grid {
        Grid(width: height, height: width, cells: (0..<width).flatMap { r in (0..<height).map { c in self[height - 1 - c, r] } })
    }
    func rotatedCounterclockwise() -> Grid { rotatedClockwise().rotatedClockwise().rotatedClockwise() }

    func upright(_ orientation: ImageOrientation) -> Grid {
        switch orientation {
        case .up: self
        case .upMirrored: flippedHorizontally()
        case .down: rotatedClockwise().rotatedClockwise()
        case .downMirrored: flippedHorizontally().rotatedClockwise().rotatedClockwise()
        case .leftMirrored: flippedHorizontally().rotatedCounterclockwise()
        case .right: rotatedClockwise()
        case .rightMirrored: flippedHorizontally().rotatedClockwise()
        case .left: rotatedCounterclockwise()
        }
    }
}

@Suite struct ImageOrientationTests {
    private let raw = Grid(width: 5, height: 3, cells: Array(0..<15))

    @Test(arguments: ImageOrientation.allCases)
    func mappingAgreesWithPixelOperations(_ orientation: ImageOrientation) {
        let upright = raw.upright(orientation)
        let size = orientation.uprightSize(rawWidth: raw.width, rawHeight: raw.height)
        #expect(size.width == upright.width && size.height == upright.height)
        for row in 0..<upright.height {
            for column in 0..<upright.width {
                let u = (Double(column) + 0.5) / Double(upright.width)
                let v = (Double(row) + 0.5) / Double(upright.height)
                let p = orientation.rawUnitPoint(fromUpright: u, v)
                let rawColumn = Int((p.x * Double(raw.width)).rounded(.down))
                let rawRow = Int((p.y * Double(raw.height)).rounded(.down))
                #expect(upright[row, column] == raw[rawRow, rawColumn], "\(orientation) at (\(column), \(row))")
            }
        }
    }

    @Test(arguments: ImageOrientation.allCases)
    func inverseMappingRoundTrips(_ orientation: ImageOrientation) {
        for (u, v) in [(0.0, 0.0), (1.0, 0.25), (0.375, 0.875), (0.5, 0.5)] {
            let p = orientation.rawUnitPoint(fromUpright: u, v)
            let back = orientation.uprightUnitPoint(fromRaw: p.x, p.y)
            #expect(back.u == u && back.v == v)
        }
    }

    @Test func exifValues() {
        #expect(ImageOrientation(exifValue: 6) == .right)
        #expect(ImageOrientation(exifValue: 0) == nil)
        #expect(ImageOrientation(exifValue: 9) == nil)
        #expect(ImageOrientation(exifValue: -1) == nil)
        #expect(ImageOrientation.allCases.map(\.exifValue) == Array(1...8))
        #expect(ImageOrientation.allCases.filter(\.swapsDimensions) == [.leftMirrored, .right, .rightMirrored, .left])
    }
}
