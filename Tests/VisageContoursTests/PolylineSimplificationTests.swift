import Testing
import VisageContours
import VisageGeometry

/// Ramer–Douglas–Peucker against the plain recursive reference in Scripts/make-contour-fixtures.py.
@Suite struct PolylineSimplificationTests {
    @Test func matchesReferenceRDP() throws {
        let fixture = try RDPFixture.load()
        #expect(fixture.cases.count > 50)
        for testCase in fixture.cases {
            let points = fixture.polylines[testCase.polyline].map { NormalizedPoint(x: $0[0], y: $0[1]) }
            let kept = PolylineSimplification.keptIndices(polyline: points, epsilon: testCase.epsilon)
            #expect(kept == testCase.kept, "polyline \(testCase.polyline), epsilon \(testCase.epsilon)")
        }
    }

    @Test func closedPolygonDropsTheClosingPoint() throws {
        let fixture = try RDPFixture.load()
        // Closed fixtures repeat their first point at the end; the closed entry point adds it itself.
        for testCase in fixture.cases {
            let polyline = fixture.polylines[testCase.polyline]
            guard polyline.count > 3, polyline.first == polyline.last else { continue }
            let points = polyline.dropLast().map { NormalizedPoint(x: $0[0], y: $0[1]) }
            let kept = PolylineSimplification.keptIndices(closedPolygon: points, epsilon: testCase.epsilon)
            #expect(kept == Array(testCase.kept.dropLast()))
        }
    }
}
