import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import ServiceLifecycle
import TextRecognition
import UnixSignals

/// `scantext serve`: the recognizer over HTTP.
///
///     POST /v1/recognize   an image or PDF in, its text (or JSONL, hOCR, TSV, ALTO, PDF) out
///     POST /v1/detect      the page outline only
///     GET  /healthz        alive;  GET /readyz: engines started;  GET /metrics: Prometheus
///     GET  /openapi.yaml   this API
public enum Server {
    /// Runs until SIGTERM or SIGINT, then stops taking connections, lets the requests in flight
    /// finish (up to the grace period) and returns. `listening` is called with the bound
    /// address once the server accepts connections.
    public static func run(
        _ configuration: ServerConfiguration, logger: Logger, listening: @escaping @Sendable (String) -> Void = { _ in }
    ) async throws {
        let service = RecognitionService(configuration: configuration, logger: logger)
        let router = Router()
        router.middlewares.add(RequestLogMiddleware(logger: logger, metrics: service.metrics))
        router.middlewares.add(MethodCheckMiddleware())
        if let token = configuration.token { router.middlewares.add(AccessTokenMiddleware(token: Array(token.utf8))) }
        Routes(service: service, configuration: configuration).add(to: router)

        let settings = ApplicationConfiguration(address: .hostname(configuration.host, port: configuration.port), serverName: "scantext")
        let app = Application(
            router: router, configuration: settings,
            onServerRunning: { channel in
                listening(channel.localAddress.map(Self.describe) ?? "\(configuration.host):\(configuration.port)")
            },
            logger: logger)
        // Engines start beside the server: /healthz answers at once, /readyz once they are up.
        let warming = Task.detached {
            do throws(RecognitionError) {
                try service.warm()
            } catch {
                logger.critical("the engines could not start", metadata: ["error": .string(error.message)])
            }
        }
        var groupSettings = ServiceGroupConfiguration(services: [app], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
        // Past the grace period, what is still in flight is cancelled.
        groupSettings.maximumGracefulShutdownDuration = configuration.gracePeriod
        let group = ServiceGroup(configuration: groupSettings)
        try await group.run()
        _ = await warming.result
    }

    private static func describe(_ address: SocketAddress) -> String {
        let host = address.ipAddress ?? "localhost"
        let port = address.port.map(String.init) ?? "?"
        return host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
    }
}
