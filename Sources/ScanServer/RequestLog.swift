import Dispatch
import HTTPTypes
import Hummingbird
import Logging

/// One log line per request on stderr (its id, method, path, status and time), the id sent
/// back as `X-Request-Id`, and the request counted in the metrics.
struct RequestLogMiddleware<Context: RequestContext>: RouterMiddleware {
    let logger: Logger
    let metrics: ServerMetrics
    static var routes: Set<String> { ["/v1/recognize", "/v1/detect", "/healthz", "/readyz", "/metrics", "/openapi.yaml"] }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let start = DispatchTime.now().uptimeNanoseconds
        let id = request.headers[.requestID].map { String($0.prefix(64)) } ?? RequestID().description
        var response: Response
        do {
            response = try await next(request, context)
        } catch let error as HTTPResponseError {
            response = APIError(error.status, code: "http-\(error.status.code)", error.status.reasonPhrase).response
        } catch {
            response = APIError(.internalServerError, code: "internal", "the request failed: \(error)").response
        }
        response.headers[.requestID] = id
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        let path = request.uri.path
        metrics.request(route: Self.routes.contains(path) ? path : "other", status: response.status.code, seconds: seconds)
        logger.info("request", metadata: [
            "id": .string(id), "method": .string(request.method.rawValue), "path": .string(path),
            "status": .stringConvertible(response.status.code), "ms": .stringConvertible(Int(seconds * 1000)),
        ])
        return response
    }
}

extension HTTPField.Name {
    static let requestID = Self("X-Request-Id")!
}
