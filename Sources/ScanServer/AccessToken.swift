import HTTPTypes
import Hummingbird

/// `--token-file`: every route but the health checks needs `Authorization: Bearer TOKEN`.
struct AccessTokenMiddleware<Context: RequestContext>: RouterMiddleware {
    let token: [UInt8]
    static var openPaths: Set<String> { ["/healthz", "/readyz"] }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        if Self.openPaths.contains(request.uri.path) { return try await next(request, context) }
        let header = request.headers[.authorization] ?? ""
        let prefix = "Bearer "
        guard header.hasPrefix(prefix), Self.equal(Array(header.utf8.dropFirst(prefix.utf8.count)), token) else {
            var refusal = APIError(.unauthorized, code: "unauthorized", "a bearer token is required; send 'Authorization: Bearer TOKEN' with the token in the server's --token-file")
            refusal.headers[.wwwAuthenticate] = "Bearer"
            return refusal.response
        }
        return try await next(request, context)
    }

    /// Compares in time that depends on the lengths only, never on where the bytes differ.
    static func equal(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        var difference = UInt8(truncatingIfNeeded: a.count ^ b.count) | (a.count == b.count ? 0 : 1)
        for i in 0..<max(a.count, b.count) {
            difference |= (i < a.count ? a[i] : 0) ^ (i < b.count ? b[i] : 0)
        }
        return difference == 0
    }
}
