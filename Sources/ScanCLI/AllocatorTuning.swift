import CTesseract

extension ScantextCommand {
    /// Tells glibc's allocator to keep the memory a page frees for the next page.
    ///
    /// Every page allocates the same few large buffers: a 12 MP photo decodes into 12 MB, its
    /// warped page takes 3 MB (flattened in place), and Tesseract makes several images of its
    /// own. By default glibc serves each of those with a fresh `mmap` and returns it on `free`
    /// (its dynamic threshold trails the sizes seen), or trims the top of a worker's heap, so the
    /// next page faults every 4 KB page in again. With two workers each such change to the page
    /// tables also interrupts the other core to flush its TLB. A worker's heap now grows to hold
    /// one page's buffers and is then reused; the README ("Memory reuse") gives the measured
    /// page faults, kernel time and peak RSS.
    ///
    /// Buffers up to 32 MiB (glibc's largest allowed threshold) come from the heap; larger ones,
    /// such as a 100 MP scan, are still mapped and returned one by one. Runs once, before any
    /// thread starts. A program embedding TextRecognition chooses its own allocator policy.
    public static func keepFreedMemoryForReuse() {
        #if canImport(Glibc)
        _ = mallopt(M_MMAP_THRESHOLD, 32 << 20)
        _ = mallopt(M_TRIM_THRESHOLD, 512 << 20)
        #endif
    }
}
