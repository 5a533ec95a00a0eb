import Foundation
import HTTPTypes
import Hummingbird
import ImageInput
import TextRecognition

/// A request the service refuses, with the status and the one line the command line would
/// print, sent as `{"error": {"code": …, "message": …}}`.
struct APIError: Error {
    let status: HTTPResponse.Status
    let code: String
    let message: String
    var headers: HTTPFields = [:]

    init(_ status: HTTPResponse.Status, code: String, _ message: String) {
        self.status = status
        self.code = code
        self.message = message
    }

    /// An upload that cannot be read: 415 when it is not a format scantext reads, 422 when it
    /// is one but is damaged, empty, encrypted or over a limit.
    init(_ error: InputError) {
        let unsupported: Set<InputError.Code> = [.notAnImage, .unsupportedFormat]
        self.init(unsupported.contains(error.code) ? .unsupportedMediaType : .unprocessableContent, code: error.code.name, error.message)
    }

    /// Options that cannot be used (a missing language pack, a bad psm): 400.
    init(_ error: RecognitionError) {
        self.init(.badRequest, code: error.code.name, error.message)
    }

    var response: Response {
        let body: [String: [String: String]] = ["error": ["code": code, "message": message]]
        let data = (try? JSONSerialization.data(withJSONObject: body, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data()
        var fields = headers
        fields[.contentType] = "application/json"
        return Response(status: status, headers: fields, body: ResponseBody(byteBuffer: ByteBuffer(bytes: data + Data("\n".utf8))))
    }
}
