import ImageInput
import ScanCore
import Synchronization

/// One unit of work: a page to decode (or already decoded), or an input that failed to open.
struct PageJob: Sendable {
    enum Work: Sendable {
        case decode(ImageSource, index: Int)
        case decoded(ScanPage)
        case failed(RecognitionError)
    }

    /// 0-based position of the page in the whole run: the order results are delivered in.
    let sequence: Int
    let inputIndex: Int
    let source: String
    let page: Int  // 1-based
    let work: Work
    /// Results the source gives: its pages, and one more for damage found in it.
    let pagesInSource: Int

    /// How errors name the page: `file`, or `file (page N)` inside a multi-page one.
    var name: String {
        if case .decode(let image, _) = work, image.pageCount > 1 { return "\(source) (page \(page))" }
        return source
    }
}

/// Hands out a run's pages in input order, opening each input only when its first page is
/// wanted, so memory holds the inputs being worked on and no more.
///
/// It has a lock of its own: inputs are listed and opened under it, and the scheduler never
/// calls in while holding its lock, so a worker that takes a prepared page or delivers a
/// result never waits behind a file being read.
final class PageFeeder: Sendable {
    private struct State {
        var inputs: AnyIterator<RecognitionInput>
        /// Inputs read from `inputs` ahead of their turn, to count what is left; not opened.
        var upcoming: [RecognitionInput] = []
        var inputsEnded = false
        var inputIndex = -1
        var currentSource = ""
        var currentPages: [ScanPage] = []
        var currentImage: ImageSource?
        var nextPage = 0
        var sequence = 0
        /// Whether the current image's damage has been handed out, after its pages.
        var damageReported = false

        mutating func nextInput() -> RecognitionInput? {
            if !upcoming.isEmpty { return upcoming.removeFirst() }
            guard !inputsEnded, let input = inputs.next() else {
                inputsEnded = true
                return nil
            }
            return input
        }
    }

    private let state: Mutex<State>
    private let limits: DecodeLimits
    private let pdfResolution: Int
    private let task: RecognitionTask

    init(inputs: sending AnyIterator<RecognitionInput>, limits: DecodeLimits, pdfResolution: Int, task: RecognitionTask) {
        state = Mutex(State(inputs: inputs))
        self.limits = limits
        self.pdfResolution = pdfResolution
        self.task = task
    }

    /// The next page in input order, opening the next input when the current one is used up;
    /// nil at the end or once the task is cancelled.
    func next() -> PageJob? {
        let limits = self.limits, pdfResolution = self.pdfResolution
        return state.withLock { s -> PageJob? in
            while !task.isCancelled {
                if let image = s.currentImage {
                    let results = image.pageCount + (image.damage == nil ? 0 : 1)
                    if s.nextPage < image.pageCount {
                        defer { s.nextPage += 1; s.sequence += 1 }
                        return PageJob(sequence: s.sequence, inputIndex: s.inputIndex, source: s.currentSource,
                                       page: s.nextPage + 1, work: .decode(image, index: s.nextPage), pagesInSource: results)
                    }
                    // The pages before the damage are read; the damage is the input's last result.
                    if let damage = image.damage, !s.damageReported {
                        defer { s.damageReported = true; s.sequence += 1 }
                        return PageJob(sequence: s.sequence, inputIndex: s.inputIndex, source: s.currentSource,
                                       page: image.pageCount + 1, work: .failed(RecognitionError(damage)), pagesInSource: results)
                    }
                }
                if s.nextPage < s.currentPages.count {
                    defer { s.nextPage += 1; s.sequence += 1 }
                    return PageJob(sequence: s.sequence, inputIndex: s.inputIndex, source: s.currentSource,
                                   page: s.currentPages[s.nextPage].number, work: .decoded(s.currentPages[s.nextPage]),
                                   pagesInSource: s.currentPages.count)
                }
                s.currentImage = nil
                s.currentPages = []
                s.nextPage = 0
                s.damageReported = false
                guard let input = s.nextInput() else { return nil }
                s.inputIndex += 1
                do throws(InputError) {
                    switch input {
                    case .file(let path):
                        s.currentSource = path
                        s.currentImage = try ImageSource.open(path: path, limits: limits, pdfResolution: pdfResolution)
                    case .standardInput:
                        s.currentSource = "-"
                        s.currentImage = try ImageSource.standardInput(limits: limits, pdfResolution: pdfResolution)
                    case .source(let image):
                        s.currentSource = image.name
                        s.currentImage = image
                    case .document(let document):
                        s.currentSource = document.source
                        s.currentPages = document.pages
                    }
                } catch {
                    defer { s.sequence += 1 }
                    return PageJob(sequence: s.sequence, inputIndex: s.inputIndex, source: s.currentSource, page: 1,
                                   work: .failed(RecognitionError(error)), pagesInSource: 1)
                }
            }
            return nil
        }
    }

    /// Pages not yet handed out, counting an input not yet opened as one page; nil when more
    /// than `horizon`. Lists up to `horizon` inputs ahead, without opening them.
    func remaining(horizon: Int) -> Int? {
        state.withLock { s -> Int? in
            var count = (s.currentImage?.pageCount ?? s.currentPages.count) - s.nextPage
            if count > horizon { return nil }
            while s.upcoming.count < horizon && !s.inputsEnded {
                if let input = s.inputs.next() { s.upcoming.append(input) } else { s.inputsEnded = true }
            }
            for input in s.upcoming {
                switch input {
                case .file, .standardInput: count += 1
                case .source(let image): count += image.pageCount
                case .document(let document): count += document.pages.count
                }
                if count > horizon { return nil }
            }
            return count > horizon || !s.inputsEnded ? nil : count
        }
    }
}
