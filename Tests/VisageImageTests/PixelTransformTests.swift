import Foundation
import Testing
import VisageImage

struct PixelTransformTests {
    @Test func concatenationAppliesTheRightOperandFirst() {
        let scale = PixelTransform.scale(x: 2, y: 3)
        let shift = PixelTransform.translation(x: 1, y: -1)
        let point = scale.concatenating(shift).apply(x: 4, y: 5)
        #expect(point == (10, 12))
    }

    @Test func rotationTurnsXTowardsY() {
        let point = PixelTransform.rotation(Double.pi / 2).apply(x: 1, y: 0)
        #expect(abs(point.x) < 1e-15 && abs(point.y - 1) < 1e-15)
    }

    @Test func inverseUndoesTheMap() throws {
        let map = PixelTransform(a: 1.5, b: -0.25, c: 0.75, d: 2, tx: 3, ty: -7)
        let inverse = try #require(map.inverted)
        let round = inverse.concatenating(map)
        for (actual, expected) in zip([round.a, round.b, round.c, round.d, round.tx, round.ty], [1.0, 0, 0, 1, 0, 0]) {
            #expect(abs(actual - expected) < 1e-12)
        }
        #expect(PixelTransform.scale(x: 0, y: 1).inverted == nil)
    }
}
