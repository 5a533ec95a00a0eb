#ifndef SCANTEXT_TESSERACT_HOOKS_H
#define SCANTEXT_TESSERACT_HOOKS_H

#include <stddef.h>

// Two pieces of work that Debian's Tesseract 5.3 does on every page and that change nothing in
// its results. This target defines the library functions through which that work is asked for;
// linked into the executable and exported from it (see Package.swift), each definition comes
// first in the dynamic linker's search order, so it is the one Tesseract and Leptonica call.
// Each is switched on per thread, by a recognition worker around a recognition, and passes
// every other call through to the real library unchanged. The executable switches them on
// only when the installed libraries match what they assume (the checks at the end).
//
// Line images. Tesseract keeps every text line it recognises as a PNG in memory: ImageData
// writes the line's Pix with pixWriteMem(IFF_PNG), at zlib's default level and with libpng
// choosing a filter for every row, and the LSTM reads it straight back. png_set_compression_level
// is the call through which Leptonica sets the level; on a switched-on thread it asks for level
// 0 and no row filter. PNG is lossless, so the pixels read back are the same.
//
// OpenMP regions. Tesseract opens an OpenMP parallel region (GOMP_parallel, or
// GOMP_parallel_sections with GOMP_sections_next and GOMP_sections_end_nowait) for every time
// step of every LSTM layer: tens of thousands per page. scantext runs one thread per engine, so
// libgomp makes a team of one each time, and its team barrier ends each region with a futex
// wake system call. On a switched-on thread these entry points run the region's body directly
// on the calling thread, which is what a team of one does, without the team: omp_get_thread_num
// is 0 and omp_get_num_threads is 1 there, as in a team of one, and the sections of a
// `parallel sections` region are handed out in order. These four and omp_get_thread_num and
// omp_get_num_threads are all the OpenMP that libtesseract.so.5 imports.

/// Switches stored (uncompressed, unfiltered) PNG writing on or off for the calling thread.
void scantext_line_images_stored(int on);

/// Whether the calling thread writes stored PNGs now.
int scantext_line_images_are_stored(void);

/// Switches inline OpenMP regions on or off for the calling thread.
void scantext_openmp_inline(int on);

/// Whether the calling thread runs OpenMP regions inline now.
int scantext_openmp_is_inline(void);

/// How many OpenMP regions the calling thread has run inline (for the tests).
unsigned long scantext_openmp_inline_regions(void);

/// Whether each hook is the definition the dynamic linker resolves its name to (1) or not (0):
/// not, when the executable was linked without exporting it.
int scantext_line_images_hooked(void);
int scantext_openmp_hooked(void);

/// Writes the names, one per line, of the undefined dynamic symbols (imports) of the shared
/// library that defines `anchor` whose names start with one of `count` `prefixes`. Returns the
/// bytes written, or -1 when the library cannot be read or `capacity` is too small.
long scantext_library_imports(const char *anchor, const char *const *prefixes, int count, char *out, size_t capacity);

/// libtesseract's OpenMP imports (GOMP_*, omp_*), as above.
long scantext_tesseract_openmp_imports(char *out, size_t capacity);

/// 1 when libtesseract imports exactly the OpenMP functions the inline regions stand in for:
/// the four hooked entry points, and omp_get_thread_num and omp_get_num_threads, which answer
/// inside an inline region as in a team of one. A Tesseract that imported any other (a newer
/// one using `omp for`, say) would reach libgomp with no region open.
int scantext_openmp_imports_supported(void);

/// 1 when Leptonica, which writes Tesseract's line images, sets PNG compression through
/// libpng's png_set_compression_level.
int scantext_line_images_written_by_leptonica(void);

#endif
