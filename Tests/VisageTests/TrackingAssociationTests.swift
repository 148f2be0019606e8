import Foundation
import Testing
import Visage
import VisageNN  // SplitMix64

struct TrackingAssociationTests {
    /// Every permutation's cost, the reference the assignment must reach.
    static func bruteForce(_ cost: [[Double]]) -> Double {
        let rows = cost.count, columns = cost[0].count
        func best(_ row: Int, _ used: Set<Int>) -> Double {
            guard row < rows else { return 0 }
            var result = Double.infinity
            // A row may go unassigned only when there are more rows than columns.
            if rows - row > columns - used.count { result = best(row + 1, used) }
            for column in 0..<columns where !used.contains(column) {
                result = min(result, cost[row][column] + best(row + 1, used.union([column])))
            }
            return result
        }
        return best(0, [])
    }

    @Test(arguments: [(1, 1), (3, 3), (4, 6), (6, 4), (5, 5), (2, 7)])
    func assignmentIsOptimal(rows: Int, columns: Int) {
        var seeded = SplitMix64(seed: UInt64(rows * 31 + columns))
        for _ in 0..<20 {
            let cost = (0..<rows).map { _ in (0..<columns).map { _ in Double(seeded.next() % 1000) / 100 } }
            let assignment = OptimalAssignment.solve(cost)
            let columnsUsed = assignment.compactMap { $0 }
            #expect(Set(columnsUsed).count == columnsUsed.count)
            #expect(columnsUsed.count == min(rows, columns))
            var total = 0.0
            for (row, column) in assignment.enumerated() { if let column { total += cost[row][column] } }
            #expect(abs(total - Self.bruteForce(cost)) < 1e-9)
        }
    }

    /// Two faces crossing at 10 px a frame: just after they pass, each face overlaps the other's last box
    /// more than its own (checked below), so matching boxes to last positions would swap them;
    /// constant-velocity predictions do not.
    @Test func crossingFacesKeepTheirIDs() {
        func a(_ frame: Int) -> CGRect { CGRect(x: Double(frame * 10), y: 100, width: 40, height: 40) }
        func b(_ frame: Int) -> CGRect { CGRect(x: Double(205 - frame * 10), y: 100, width: 40, height: 40) }
        #expect(TrackAssociator.intersectionOverUnion(a(11), b(10)) > TrackAssociator.intersectionOverUnion(a(11), a(10)))
        var associator = TrackAssociator()
        var idOfA: Int?, idOfB: Int?
        for frame in 0..<21 {
            let (a, b) = (a(frame), b(frame))
            // Input order alternates so it cannot carry identity.
            let ids = frame.isMultiple(of: 2) ? associator.associate([a, b], at: Double(frame) / 30)
                : associator.associate([b, a], at: Double(frame) / 30).reversed()
            idOfA = idOfA ?? ids[0]
            idOfB = idOfB ?? ids[1]
            #expect(ids == [idOfA!, idOfB!], "frame \(frame)")
        }
        #expect(idOfA != idOfB)
    }

    @Test func leavingAndReturningGivesANewID() {
        var associator = TrackAssociator(maximumGap: 0.25)
        let box = CGRect(x: 50, y: 50, width: 80, height: 80)
        var ids: [Int] = []
        for frame in 0..<10 { ids += associator.associate([box], at: Double(frame) / 30) }
        // A two-frame dropout (67 ms) is the same face.
        for frame in 12..<15 { ids += associator.associate([box], at: Double(frame) / 30) }
        #expect(Set(ids).count == 1)
        for frame in 15..<30 { _ = associator.associate([], at: Double(frame) / 30) }
        let returned = associator.associate([box], at: 1.0)
        #expect(returned != [ids[0]])
        #expect(associator.associate([box], at: 1.0 + 1.0 / 30) == returned)
    }

    @Test func aNewFaceBesideATrackedOneGetsItsOwnID() {
        var associator = TrackAssociator()
        let first = associator.associate([CGRect(x: 0, y: 0, width: 50, height: 50)], at: 0)
        let both = associator.associate([CGRect(x: 300, y: 0, width: 50, height: 50), CGRect(x: 2, y: 0, width: 50, height: 50)], at: 0.033)
        #expect(both[1] == first[0])
        #expect(both[0] != first[0])
    }
}
