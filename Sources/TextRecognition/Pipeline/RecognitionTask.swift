/// Totals for a finished run.
public struct RecognitionSummary: Sendable {
    public var pages = 0
    public var failedPages = 0
    /// Sources with at least one failed page.
    public var failedSources = 0
    public var sources = 0
    public var elapsed: Double = 0
    /// True when the run was cancelled before every input was read.
    public var cancelled = false
    /// Sum of Tesseract time over pages (engine starts and recognition), for efficiency figures.
    public var tesseractSeconds: Double = 0

    public init() {}

    /// Counts one delivered page; pages come in order, so a source's failures are adjacent.
    mutating func count(_ page: RecognizedPage, lastFailedInput: inout Int) {
        pages += 1
        tesseractSeconds += page.timings.tesseract
        if page.page == 1 { sources += 1 }
        if page.error != nil {
            failedPages += 1
            if lastFailedInput != page.inputIndex {
                failedSources += 1
                lastFailedInput = page.inputIndex
            }
        }
    }
}

/// A running recognition, which can be cancelled.
public final class RecognitionTask: Sendable {
    let stopFeeding = AtomicFlag()
    let abandonFlag = CancellationFlag()

    /// Stops taking new pages; pages already started finish and are delivered.
    public func cancel() { stopFeeding.set() }

    /// Also stops pages in Tesseract as soon as it checks (within about a second); those pages
    /// become `.cancelled` error results.
    public func abandon() {
        stopFeeding.set()
        abandonFlag.set()
    }

    public var isCancelled: Bool { stopFeeding.value }
}
