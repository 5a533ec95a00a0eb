import HTTPTypes
import Hummingbird

/// A known path asked with a method it does not take gets 405 and `Allow`, not 404.
struct MethodCheckMiddleware<Context: RequestContext>: RouterMiddleware {
    static var allowed: [String: Set<HTTPRequest.Method>] {
        ["/v1/recognize": [.post], "/v1/detect": [.post], "/healthz": [.get], "/readyz": [.get],
         "/metrics": [.get], "/openapi.yaml": [.get]]
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        if let methods = Self.allowed[request.uri.path], !methods.contains(request.method) {
            var refusal = APIError(.methodNotAllowed, code: "method-not-allowed",
                                   "\(request.method.rawValue) is not served on \(request.uri.path); see /openapi.yaml")
            refusal.headers[.allow] = methods.map(\.rawValue).sorted().joined(separator: ", ")
            return refusal.response
        }
        return try await next(request, context)
    }
}
