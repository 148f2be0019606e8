import Foundation

/// A mutation fuzzer for the model reader: corrupts valid `.tflite` files and checks that loading
/// (and, optionally, running) them either works or throws ``ModelError`` — a crash, hang or
/// out-of-bounds read would stop the process instead.
///
/// Every mutant is a pure function of (seed file, seed, iteration), so a crasher found after a
/// million iterations is reproduced by ``mutant(of:seed:iteration:)`` and kept as a regression test.
///
/// ```
/// $ swift run -c release visage benchmark --fuzz 100000
/// ```
package enum ModelFuzzer {
    /// What a fuzzing run did.
    package struct Summary: Sendable, CustomStringConvertible {
        package var iterations = 0
        /// Mutants that still loaded (most bit flips land in weights).
        package var loaded = 0
        /// Mutants rejected, by error kind.
        package var rejected: [ModelError.Kind: Int] = [:]
        /// Loaded mutants that were also invoked.
        package var invoked = 0

        package var description: String {
            let kinds = rejected.map { "\($0.key): \($0.value)" }.sorted().joined(separator: ", ")
            return "\(iterations) mutants: \(loaded) loaded (\(invoked) invoked), rejected \(kinds.isEmpty ? "none" : kinds); no crash"
        }
    }

    /// Loads mutants of `seeds` round-robin for `iterations` iterations, invoking loaded mutants of
    /// seeds no larger than `invokeLimit` bytes.
    package static func run(seeds: [Data], iterations: Int, seed: UInt64, invokeLimit: Int = 0) -> Summary {
        var summary = Summary()
        let originals = seeds.map { [UInt8]($0) }
        guard !originals.isEmpty else { return summary }
        for iteration in 0 ..< iterations {
            let original = originals[iteration % originals.count]
            let bytes = mutant(of: original, seed: seed, iteration: iteration)
            summary.iterations += 1
            do {
                let model = try Model(data: Data(bytes))
                summary.loaded += 1
                if original.count <= invokeLimit {
                    let interpreter = try Interpreter(model: model)
                    try interpreter.invoke()
                    summary.invoked += 1
                }
            } catch {
                summary.rejected[error.kind, default: 0] += 1
            }
        }
        return summary
    }

    /// The mutant of `original` for `iteration` of a run seeded with `seed`: one to four of bit
    /// flips, byte overwrites, 32-bit offset corruption (0, -1, huge, small, self-referencing),
    /// chunk copies, or a truncation.
    package static func mutant(of original: [UInt8], seed: UInt64, iteration: Int) -> [UInt8] {
        var random = SplitMix64(seed: seed &+ UInt64(iteration) &* 0x9E37_79B9_7F4A_7C15)
        var bytes = original
        for _ in 0 ... random.below(4) {
            guard bytes.count >= 8 else { break }
            let position = random.below(bytes.count)
            switch random.below(6) {
            case 0:
                bytes[position] ^= 1 << UInt8(random.below(8))
            case 1:
                bytes[position] = [0, 0xff, 0x7f, 0x80, 1, UInt8(truncatingIfNeeded: random.next())][random.below(6)]
            case 2, 3:
                let aligned = min(position & ~3, bytes.count - 4)
                let values: [UInt32] = [0, .max, 0x7fff_ffff, 0x8000_0000, UInt32(random.below(64)), UInt32(truncatingIfNeeded: random.next()),
                                        UInt32(truncatingIfNeeded: bytes.count - aligned), UInt32(truncatingIfNeeded: -aligned)]
                let value = values[random.below(values.count)]
                for byte in 0 ..< 4 { bytes[aligned + byte] = UInt8(truncatingIfNeeded: value >> (8 * byte)) }
            case 4:
                let length = min(1 + random.below(64), bytes.count - position)
                let source = random.below(bytes.count - length + 1)
                bytes.replaceSubrange(position ..< position + length, with: bytes[source ..< source + length])
            default:
                bytes.removeSubrange(random.below(bytes.count) ..< bytes.count)
            }
        }
        return bytes
    }
}
