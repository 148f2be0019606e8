import Foundation
import Testing
import Yams

/// docs/kubernetes/visage.yaml parses, and says what the service does: probes on /readyz and /healthz
/// at the container's port, flags `visage serve` has, a grace period longer than the request deadline.
@Suite struct KubernetesManifestTests {
    nonisolated(unsafe) static let documents: [[String: Any]] = {
        let url = CLI.packageRoot.appendingPathComponent("docs/kubernetes/visage.yaml")
        let text = try! String(contentsOf: url, encoding: .utf8)
        return try! Yams.load_all(yaml: text).compactMap { $0 as? [String: Any] }
    }()

    static func document(_ kind: String) -> [String: Any]? { documents.first { $0["kind"] as? String == kind } }

    static func value(_ object: Any?, _ path: String) -> Any? {
        path.split(separator: ".").reduce(object) { current, key in
            if let index = Int(key) { return (current as? [Any]).flatMap { index < $0.count ? $0[index] : nil } }
            return (current as? [String: Any])?[String(key)]
        }
    }

    @Test func deploymentServiceAndAutoscalerAreThereAndAgree() throws {
        #expect(Self.documents.map { $0["kind"] as? String } == ["Deployment", "Service", "HorizontalPodAutoscaler"])
        let deployment = try #require(Self.document("Deployment"))
        let container = try #require(Self.value(deployment, "spec.template.spec.containers.0") as? [String: Any])
        #expect(Self.value(container, "readinessProbe.httpGet.path") as? String == "/readyz")
        #expect(Self.value(container, "startupProbe.httpGet.path") as? String == "/readyz")
        #expect(Self.value(container, "livenessProbe.httpGet.path") as? String == "/healthz")
        #expect(Self.value(container, "ports.0.name") as? String == "http")
        #expect(Self.value(container, "ports.0.containerPort") as? Int == 8080)

        // Every flag the manifest passes is one `visage serve` takes, and the port it listens on is the container's.
        let arguments = try #require(Self.value(container, "args") as? [String])
        let help = try CLI.run(["serve", "--help"]).stdout
        for flag in arguments where flag.hasPrefix("--") { #expect(help.contains(flag), "\(flag)") }
        #expect(arguments.firstIndex(of: "--port").map { arguments[$0 + 1] } == "8080")
        #expect(arguments.firstIndex(of: "--host").map { arguments[$0 + 1] } == "0.0.0.0")

        // Draining finishes within the grace period: the deadline plus the preStop pause fit.
        let grace = try #require(Self.value(deployment, "spec.template.spec.terminationGracePeriodSeconds") as? Int)
        let deadline = arguments.firstIndex(of: "--deadline").flatMap { Int(arguments[$0 + 1]) } ?? 10
        let pause = Self.value(container, "lifecycle.preStop.sleep.seconds") as? Int ?? 0
        #expect(grace > deadline + pause)
        // … and so does the drain's own bound, after which `visage serve` exits by itself.
        let drain = arguments.firstIndex(of: "--drain-timeout").flatMap { Int(arguments[$0 + 1]) } ?? deadline + 10
        #expect(grace > drain + pause)

        // The inferences match the CPU the container gets.
        let cpu = try #require(Self.value(container, "resources.limits.cpu") as? String)
        #expect(arguments.firstIndex(of: "--max-inferences").map { arguments[$0 + 1] } == cpu)

        let service = try #require(Self.document("Service"))
        #expect(Self.value(service, "spec.ports.0.targetPort") as? String == "http")
        #expect((Self.value(service, "spec.selector") as? [String: String]) == (Self.value(deployment, "spec.selector.matchLabels") as? [String: String]))
        let autoscaler = try #require(Self.document("HorizontalPodAutoscaler"))
        #expect(Self.value(autoscaler, "spec.scaleTargetRef.name") as? String == "visage")
        #expect((Self.value(autoscaler, "spec.minReplicas") as? Int ?? 0) >= 2)
    }
}
