import Testing
import VisageContours
import VisageGeometry

@Suite struct ContourGeometryTests {
    private func contours(_ mask: BinaryMask) throws -> [Contour] {
        try DetectContoursRequest().performSynchronously(on: try mask.grayImage()).contours
    }

    /// A filled square's outline runs through its border pixel centres: a 10-pixel square encloses 9 × 9.
    @Test func squareAreaAndIoU() throws {
        let a = try contours(.rectangles(width: 40, height: 20, [(2, 3, 10, 10)]))[0]
        let b = try contours(.rectangles(width: 40, height: 20, [(5, 3, 10, 10)]))[0]
        let c = try contours(.rectangles(width: 40, height: 20, [(25, 3, 10, 10)]))[0]
        #expect(isClose(a.area, 81.0 / 800))
        #expect(isClose(a.intersectionOverUnion(with: a), 1))
        // Overlap 6 × 9 of two 9 × 9 squares: 54 / (81 + 81 − 54).
        #expect(isClose(a.intersectionOverUnion(with: b), 54.0 / 108))
        #expect(a.intersectionOverUnion(with: c) == 0)
    }

    /// IoU of random blobs against a brute-force reference: point-in-polygon on a fine grid.
    @Test(arguments: try FindContoursCase.all().filter { $0.name.hasPrefix("random") }.prefix(2))
    func iouMatchesBruteForce(_ fixture: FindContoursCase) throws {
        let found = try contours(fixture.mask).filter { $0.area > 0.002 }.prefix(8)
        var compared = 0
        for a in found {
            for b in found where b.indexPath != a.indexPath && a.boundingBox.intersectionOverUnion(b.boundingBox) > 0 {
                let reference = bruteForceIoU(a.normalizedPoints, b.normalizedPoints, samples: 120)
                #expect(isClose(a.intersectionOverUnion(with: b), reference, tolerance: 0.02), "\(a) \(b)")
                compared += 1
            }
        }
        #expect(compared >= 2)
    }

    @Test func degenerateContoursCompareByPixelBoxes() throws {
        let line = try contours(.rectangles(width: 20, height: 10, [(2, 4, 10, 1)]))[0]
        let same = try contours(.rectangles(width: 20, height: 10, [(2, 4, 10, 1)]))[0]
        let shorter = try contours(.rectangles(width: 20, height: 10, [(2, 4, 5, 1)]))[0]
        #expect(line.area == 0)
        #expect(isClose(line.intersectionOverUnion(with: same), 1))
        #expect(isClose(line.intersectionOverUnion(with: shorter), 0.5))
    }

    /// Outer borders turn counter-clockwise (positive shoelace area with y up), holes clockwise.
    @Test(arguments: try FindContoursCase.all().filter { ["frame_nested", "rings", "random_holes"].contains($0.name) })
    func orientationAlternatesWithDepth(_ fixture: FindContoursCase) throws {
        for contour in try contours(fixture.mask) where contour.area > 0 {
            let p = contour.normalizedPoints
            let twice = p.indices.reduce(0.0) { $0 + p[$1].x * p[($1 + 1) % p.count].y - p[($1 + 1) % p.count].x * p[$1].y }
            #expect((twice > 0) == (contour.indexPath.count % 2 == 1), "\(contour)")
        }
    }

    @Test func boundingBoxAndAspectRatio() throws {
        let contour = try contours(.rectangles(width: 40, height: 20, [(2, 3, 10, 5)]))[0]
        let box = contour.boundingBox
        #expect(isClose(box.minX, 2.5 / 40))
        #expect(isClose(box.width, 9.0 / 40))
        #expect(isClose(box.maxY, 1 - 3.5 / 20))
        #expect(isClose(box.height, 4.0 / 20))
        #expect(contour.aspectRatio == 2)
    }

    @Test func polygonApproximationOfASquareKeepsItsCorners() throws {
        let square = try contours(.rectangles(width: 30, height: 30, [(5, 5, 12, 12)]))[0]
        let simplified = try square.polygonApproximation(epsilon: 0.001)
        #expect(simplified.pointCount == 4)
        #expect(simplified.indexPath == square.indexPath)
        #expect(Set(simplified.normalizedPoints) == Set(square.normalizedPoints.filter {
            let box = square.boundingBox
            return ($0.x == box.minX || $0.x == box.maxX) && ($0.y == box.minY || $0.y == box.maxY)
        }))
        // Epsilon 0 still drops points exactly on a line between kept ones.
        #expect(try square.polygonApproximation(epsilon: 0).pointCount == 4)
    }

    private func bruteForceIoU(_ a: [NormalizedPoint], _ b: [NormalizedPoint], samples: Int) -> Double {
        func inside(_ x: Double, _ y: Double, _ polygon: [NormalizedPoint]) -> Bool {
            var result = false
            var j = polygon.count - 1
            for i in polygon.indices {
                let (pi, pj) = (polygon[i], polygon[j])
                if (pi.y > y) != (pj.y > y), x < (pj.x - pi.x) * (y - pi.y) / (pj.y - pi.y) + pi.x { result.toggle() }
                j = i
            }
            return result
        }
        // Samples over the union of the bounding boxes; outside it neither polygon has area.
        let xs = (a + b).map(\.x), ys = (a + b).map(\.y)
        let (x0, x1, y0, y1) = (xs.min()!, xs.max()!, ys.min()!, ys.max()!)
        var both = 0, either = 0
        for i in 0 ..< samples {
            for j in 0 ..< samples {
                let x = x0 + (x1 - x0) * (Double(i) + 0.5) / Double(samples)
                let y = y0 + (y1 - y0) * (Double(j) + 0.5) / Double(samples)
                let (ia, ib) = (inside(x, y, a), inside(x, y, b))
                if ia && ib { both += 1 }
                if ia || ib { either += 1 }
            }
        }
        return either == 0 ? 0 : Double(both) / Double(either)
    }
}
