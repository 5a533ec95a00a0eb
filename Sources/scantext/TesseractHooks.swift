import CTesseractHooks
import TextRecognition

/// Switches on CTesseractHooks (see its header) for every recognition, each only when the
/// installed libraries are the ones it was written for; otherwise recognition keeps the
/// OpenMP cap alone (see `RecognitionThreadHooks`).
enum TesseractHooks {
    static func install() {
        let inlineOpenMP = scantext_openmp_hooked() == 1 && scantext_openmp_imports_supported() == 1
        let storedLineImages = scantext_line_images_hooked() == 1 && scantext_line_images_written_by_leptonica() == 1
        guard inlineOpenMP || storedLineImages else { return }
        RecognitionThreadHooks.installed = RecognitionThreadHooks(
            coversOpenMP: inlineOpenMP,
            enter: {
                if storedLineImages { scantext_line_images_stored(1) }
                if inlineOpenMP { scantext_openmp_inline(1) }
            },
            leave: {
                scantext_openmp_inline(0)
                scantext_line_images_stored(0)
            })
    }
}
