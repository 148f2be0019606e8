import Testing
import VisageContours

/// Border following against OpenCV's findContours (RETR_TREE, CHAIN_APPROX_NONE).
@Suite struct BorderFollowingTests {
    @Test(arguments: try FindContoursCase.all())
    func matchesOpenCV(_ fixture: FindContoursCase) throws {
        let borders = BorderFollowing.traceBorders(in: fixture.mask)
        let (order, hierarchy) = borders.openCVOrder()
        #expect(order.count == fixture.contours.count)
        #expect(hierarchy == fixture.hierarchy)
        for (index, border) in order.enumerated() where index < fixture.contours.count {
            let points = borders.points(of: border).flatMap { [$0.x, $0.y] }
            #expect(points == fixture.contours[index], "contour \(index)")
        }
    }

    @Test func emptyMaskHasNoBorders() {
        let borders = BorderFollowing.traceBorders(in: BinaryMask(width: 0, height: 0, pixels: []))
        #expect(borders.count == 0)
        #expect(borders.pointOffsets == [0])
    }
}
