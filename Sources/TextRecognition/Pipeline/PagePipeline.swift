/// A pipeline that takes a run's inputs and delivers one result per page, in order:
/// `TextRecognizer`, and `PageOutliner` when no text is wanted.
public protocol PagePipeline: Sendable {
    /// Starts the run in the background. `onPage` is called once per page, in order, on a
    /// serial queue; `completion` after the last page.
    @discardableResult
    func start<Inputs: Sequence<RecognitionInput>>(
        _ inputs: sending Inputs,
        onPage: @escaping @Sendable (RecognizedPage) -> Void,
        completion: @escaping @Sendable (RecognitionSummary) -> Void
    ) -> RecognitionTask
}

extension TextRecognizer: PagePipeline {}
extension PageOutliner: PagePipeline {}
