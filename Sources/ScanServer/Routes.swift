import Foundation
import HTTPTypes
import Hummingbird
import ImageInput
import NIOCore
import PagePreparation
import ScanCore

/// The API's routes; `openapi.yaml` (served at `/openapi.yaml`) describes each.
struct Routes {
    let service: RecognitionService
    let configuration: ServerConfiguration

    func add(to router: Router<BasicRequestContext>) {
        router.post("/v1/recognize") { request, context in
            await answer { () async throws(APIError) -> Response in
                let (options, ticket, source) = try await admitted(request)
                return try service.recognize(source, options: options, ticket: ticket)
            }
        }
        router.post("/v1/detect") { request, context in
            await answer { () async throws(APIError) -> Response in
                let (options, ticket, source) = try await admitted(request)
                return await service.detect(source, crop: options.recognition.crop, ticket: ticket)
            }
        }
        router.get("/healthz") { _, _ in
            Response(status: .ok, headers: [.contentType: "text/plain"], body: ResponseBody(byteBuffer: ByteBuffer(string: "ok\n")))
        }
        router.get("/readyz") { _, _ in
            service.isReady
                ? Response(status: .ok, headers: [.contentType: "text/plain"], body: ResponseBody(byteBuffer: ByteBuffer(string: "ready\n")))
                : APIError(.serviceUnavailable, code: "starting", "the engines are still starting").response
        }
        router.get("/metrics") { _, _ in
            service.metrics.enginesInUse.set(Double(service.engines.inUse))
            return Response(
                status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
                body: ResponseBody(byteBuffer: ByteBuffer(bytes: service.metrics.registry.emitToBuffer())))
        }
        router.get("/openapi.yaml") { _, _ in
            Response(status: .ok, headers: [.contentType: "application/yaml"], body: ResponseBody(byteBuffer: ByteBuffer(bytes: PackageResources.openapi_yaml)))
        }
    }

    /// A request's options (checked before anything is read), its place in the service, and
    /// its upload opened as an image or PDF.
    private func admitted(_ request: Request) async throws(APIError) -> (RequestOptions, Admission.Ticket, ImageSource) {
        let options = try RequestOptions(query: query(request), defaults: configuration.recognition)
        let ticket = try service.admit()
        let source = try service.source(try await upload(request), options: options.recognition)
        return (options, ticket, source)
    }

    /// The query's parameters, the last of each name winning.
    private func query(_ request: Request) -> [String: String] {
        var values: [String: String] = [:]
        for (name, value) in request.uri.queryParameters { values[String(name)] = String(value) }
        return values
    }

    /// The request's body, refused with 413 past `--max-upload-mb` (before reading it when its
    /// length is declared) and with 400 when empty.
    private func upload(_ request: Request) async throws(APIError) -> ByteBuffer {
        let limit = configuration.maxUploadBytes
        let tooLarge = APIError(.contentTooLarge, code: "too-large",
                                "upload: the body is over the server's limit of \(limit >> 20) MB; send a smaller file or raise --max-upload-mb")
        if let declared = request.headers[.contentLength].flatMap({ Int($0) }), declared > limit { throw tooLarge }
        var request = request
        let body: ByteBuffer
        do {
            body = try await request.collectBody(upTo: limit)
        } catch is NIOTooManyBytesError {
            throw tooLarge
        } catch {
            throw APIError(.badRequest, code: "bad-body", "upload: the body could not be read (\(error))")
        }
        guard body.readableBytes > 0 else {
            throw APIError(.badRequest, code: "empty", "upload: the body is empty; send the image or PDF as the request body")
        }
        return body
    }

    /// The route's response, or its refusal as JSON.
    private func answer(_ body: () async throws(APIError) -> Response) async -> Response {
        do throws(APIError) {
            return try await body()
        } catch {
            return error.response
        }
    }
}
