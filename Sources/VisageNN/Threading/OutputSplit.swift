/// How one operator's output is shared among an interpreter's threads: bands of output rows,
/// runs of 16-channel weight panels, or not at all.
///
/// The rule, in order:
/// 1. **Small operators stay on one thread.** Each part must hold at least
///    ``minimumWorkPerPart`` units of work (one unit is a convolution multiply-accumulate,
///    about 12 ps on one AVX-512 core: 120,000 is about 1.5 µs there, 3 µs with AVX2).
///    Handing a part to a helper and waiting for it costs about 1 µs, so smaller splits lose;
///    but an operator left on one thread reads the half of its input the other core wrote,
///    which costs too, so the bar is lower than the hand-off alone would set (120,000 ran
///    mesh, full and short range 1.6–2.6 % faster at 2 threads than 200,000, same run).
/// 2. **Channels when the weights are the larger operand or the rows are too few.** A layer
///    whose weights outweigh its activations (the 1×1 layers at 6×6 and below, the mesh's 2×2
///    head, the blendshape network's one-row layers) is split by weight panels, so each core
///    streams only its share of the weights; so is any layer with fewer than two rows per part.
/// 3. **Rows otherwise**, which keeps each core on the band of the activations it wrote.
///
/// Parts are contiguous and nearly equal, and every split gives the values the whole does: a
/// part computes its outputs exactly as the whole would.
package struct OutputSplit: Equatable, Sendable {
    package enum Axis: Equatable, Sendable { case rows, channels }

    package let axis: Axis
    package let parts: Int
    /// The whole operator's cost in convolution multiply-accumulates, as given.
    package let work: Int

    /// About 1.5 µs of convolution on one AVX-512 core (3 µs with AVX2): less per thread does not
    /// pay for the hand-off.
    package static let minimumWorkPerPart = 120_000

    /// - Parameters:
    ///   - rows: output rows.
    ///   - panels: output channel panels (one for operators that cannot split channels).
    ///   - work: the whole operator's cost in convolution multiply-accumulates.
    ///   - weightsOutweighActivations: the weights hold more values than the input and output together.
    ///   - threads: threads available, the caller included.
    package init(rows: Int, panels: Int, work: Int, weightsOutweighActivations: Bool = false, threads: Int) {
        self.work = work
        let wanted = min(threads, max(1, work / Self.minimumWorkPerPart))
        if wanted > 1, panels >= wanted, weightsOutweighActivations || rows < 2 * wanted {
            (axis, parts) = (.channels, wanted)
        } else {
            (axis, parts) = (.rows, max(1, min(wanted, rows)))
        }
    }

    /// One part: the operator runs on the calling thread.
    package static let serial = OutputSplit(rows: 1, panels: 1, work: 0, threads: 1)

    /// Part `part` of `0..<count` things (rows or panels): contiguous, sizes differing by at most one.
    package func range(_ part: Int, of count: Int) -> Range<Int> {
        count * part / parts ..< count * (part + 1) / parts
    }
}
