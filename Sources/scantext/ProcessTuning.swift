#if canImport(Glibc)
import Glibc
#endif
import CTesseract
import ScanBatch

enum ProcessTuning {
    /// Stops with a one-line error, before any kernel runs, when ScanCore was compiled for
    /// x86-64-v3 (`SCANTEXT_TUNED=1`) and this CPU lacks it: an illegal instruction would kill
    /// the process instead. This file is compiled for the baseline.
    static func requireKernelCPU() {
        #if SCANCORE_X86_64_V3
        if scantext_cpu_runs_x86_64_v3() == 0 {
            Diagnostics.error(
                "this build needs an x86-64-v3 CPU (AVX2, FMA, BMI2) and this one lacks them; "
                    + "rebuild with 'swift build -c release' (without SCANTEXT_TUNED=1)")
            exit(ExitStatus.setupFailed)
        }
        #endif
    }

    /// Tells glibc's allocator to keep the memory a page frees for the next page.
    ///
    /// Every page allocates the same few large buffers (12 MB for a decoded 12 MP photo, the
    /// warped page, Tesseract's own images). By default glibc maps each afresh and unmaps it
    /// on `free`, so every page faults them in again; now a worker's heap grows to hold one
    /// page's buffers and is reused. Buffers over 32 MiB (glibc's largest threshold) are still
    /// mapped one by one. Runs once, before any thread starts.
    static func keepFreedMemoryForReuse() {
        #if canImport(Glibc)
        _ = mallopt(M_MMAP_THRESHOLD, 32 << 20)
        _ = mallopt(M_TRIM_THRESHOLD, 512 << 20)
        #endif
    }
}
