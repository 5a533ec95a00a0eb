import Prometheus
import TextRecognition

/// What `/metrics` reports, in Prometheus's text format: requests by route and status, pages
/// by outcome, seconds per stage, and how many requests wait for an engine.
final class ServerMetrics: Sendable {
    let registry = PrometheusCollectorRegistry()
    private let pagesDone: Counter
    private let pagesFailed: Counter
    private let stages: [(name: String, histogram: ValueHistogram)]
    let requestsInFlight: Gauge
    let requestsWaiting: Gauge
    let enginesInUse: Gauge

    static let secondsBuckets = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60]

    private static var pages: MetricNameDescriptor { MetricNameDescriptor(namespace: "scantext", metricName: "pages", unitName: "total", helpText: "Pages delivered, by outcome.") }
    private static var stageSeconds: MetricNameDescriptor { MetricNameDescriptor(
        namespace: "scantext", metricName: "stage", unitName: "seconds", helpText: "Seconds a page spent in each stage.") }
    private static var requests: MetricNameDescriptor { MetricNameDescriptor(
        namespace: "scantext", subsystem: "http", metricName: "requests", unitName: "total", helpText: "Requests answered, by route and status.") }
    private static var requestSeconds: MetricNameDescriptor { MetricNameDescriptor(
        namespace: "scantext", subsystem: "http", metricName: "request", unitName: "seconds",
        helpText: "Seconds from a request's arrival to its response's head.") }

    init() {
        pagesDone = registry.makeCounter(descriptor: Self.pages, labels: [("outcome", "ok")])
        pagesFailed = registry.makeCounter(descriptor: Self.pages, labels: [("outcome", "error")])
        let registry = self.registry
        stages = ["decode", "detect", "warp", "recognize"].map { stage in
            (stage, registry.makeValueHistogram(descriptor: Self.stageSeconds, labels: [("stage", stage)], buckets: Self.secondsBuckets))
        }
        requestsInFlight = registry.makeGauge(descriptor: MetricNameDescriptor(
            namespace: "scantext", metricName: "requests_in_flight", unitName: "", helpText: "Requests admitted and not yet answered in full."))
        requestsWaiting = registry.makeGauge(descriptor: MetricNameDescriptor(
            namespace: "scantext", metricName: "queue_depth", unitName: "", helpText: "Admitted requests beyond the engines: waiting for one."))
        enginesInUse = registry.makeGauge(descriptor: MetricNameDescriptor(
            namespace: "scantext", metricName: "engines_in_use", unitName: "", helpText: "Tesseract engines lent to requests now."))
    }

    /// Counts a request answered with `status` on `route`.
    func request(route: String, status: Int, seconds: Double) {
        registry.makeCounter(descriptor: Self.requests, labels: [("route", route), ("status", String(status))]).increment()
        registry.makeValueHistogram(descriptor: Self.requestSeconds, labels: [("route", route)], buckets: Self.secondsBuckets).record(seconds)
    }

    func page(_ page: RecognizedPage) {
        (page.error == nil ? pagesDone : pagesFailed).increment()
        let t = page.timings
        for (stage, value) in zip(stages, [t.decode, t.detect, t.warp, t.engine + t.recognize]) { stage.histogram.record(value) }
    }
}
