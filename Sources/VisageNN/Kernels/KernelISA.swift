import CVisageKernels
import Foundation

/// An instruction set that CVisageKernels has a complete kernel set for.
///
/// The choice is made once per process (`selected`): the best set this CPU runs, unless the
/// environment variable `VISAGE_KERNELS` names another available one — `VISAGE_KERNELS=portable`
/// forces the plain C path, so the same test run can cover it. Tests and benchmarks iterate
/// `available` to exercise every set this machine has.
package enum KernelISA: String, CaseIterable, Sendable {
    /// Plain C, on every CPU.
    case portable
    /// x86-64 with AVX2 and FMA, checked at run time.
    case avx2FMA = "avx2_fma"
    /// x86-64 with AVX-512F and VL (and AVX2, FMA), with the OS saving the zmm state; checked at
    /// run time. Preferred over `avx2FMA`; `VISAGE_KERNELS=avx2_fma` still forces AVX2.
    case avx512
    /// AArch64 Advanced SIMD.
    case neon

    /// The set every packed kernel uses unless told otherwise.
    package static let selected = select(request: ProcessInfo.processInfo.environment["VISAGE_KERNELS"])

    /// The sets this machine can run, portable first and the preferred one last.
    package static var available: [KernelISA] { allCases.filter(\.isAvailable) }

    /// The best available set, or the one `request` names when it is available.
    package static func select(request: String?) -> KernelISA {
        let chosen = request.map { visage_isa_select($0) } ?? visage_isa_select(nil)
        return KernelISA(chosen)
    }

    /// Why `request` (the value of `VISAGE_KERNELS`) is not the set that runs, for a front end to
    /// print; nil when it is, or when nothing was requested. A typo must not pass unnoticed as the
    /// default set.
    package static func requestProblem(_ request: String?) -> String? {
        guard let request else { return nil }
        let chosen = select(request: request)
        guard let named = KernelISA(rawValue: request) else {
            let names = allCases.map(\.rawValue).joined(separator: ", ")
            return "VISAGE_KERNELS=\(request) names no kernel set (\(names)); using \(chosen.rawValue)"
        }
        guard named.isAvailable else {
            return "VISAGE_KERNELS=\(request): this CPU cannot run the \(request) kernels; using \(chosen.rawValue)"
        }
        return nil
    }

    package var isAvailable: Bool { visage_isa_is_available(cValue) != 0 }

    var cValue: visage_isa {
        switch self {
        case .portable: visage_isa_portable
        case .avx2FMA: visage_isa_avx2_fma
        case .avx512: visage_isa_avx512
        case .neon: visage_isa_neon
        }
    }

    private init(_ isa: visage_isa) {
        switch isa {
        case visage_isa_avx2_fma: self = .avx2FMA
        case visage_isa_avx512: self = .avx512
        case visage_isa_neon: self = .neon
        default: self = .portable
        }
    }
}
