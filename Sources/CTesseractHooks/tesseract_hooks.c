#define _GNU_SOURCE
#include "tesseract_hooks.h"

#include <dlfcn.h>
#include <pthread.h>

// The real functions, looked up once, after this executable in the search order. Only libpng
// and libgomp users can call the hooks, so those libraries are loaded by then; the checks keep
// a broken installation from crashing.

typedef void (*compression_level_function)(void *png, int level);
typedef void (*filter_function)(void *png, int method, int filters);
typedef void (*region_function)(void *data);
typedef void (*parallel_function)(region_function fn, void *data, unsigned threads, unsigned flags);
typedef void (*parallel_sections_function)(region_function fn, void *data, unsigned threads, unsigned count, unsigned flags);
typedef unsigned (*sections_next_function)(void);
typedef void (*sections_end_function)(void);

static pthread_once_t resolve_once = PTHREAD_ONCE_INIT;
static compression_level_function libpng_compression_level;
static filter_function libpng_filter;
static parallel_function libgomp_parallel;
static parallel_sections_function libgomp_parallel_sections;
static sections_next_function libgomp_sections_next;
static sections_end_function libgomp_sections_end_nowait;

static void resolve(void) {
    libpng_compression_level = (compression_level_function)dlsym(RTLD_NEXT, "png_set_compression_level");
    libpng_filter = (filter_function)dlsym(RTLD_NEXT, "png_set_filter");
    libgomp_parallel = (parallel_function)dlsym(RTLD_NEXT, "GOMP_parallel");
    libgomp_parallel_sections = (parallel_sections_function)dlsym(RTLD_NEXT, "GOMP_parallel_sections");
    libgomp_sections_next = (sections_next_function)dlsym(RTLD_NEXT, "GOMP_sections_next");
    libgomp_sections_end_nowait = (sections_end_function)dlsym(RTLD_NEXT, "GOMP_sections_end_nowait");
}

// MARK: line images

// libpng's prototypes take png_structrp; the pointer is only passed on, so no libpng headers.
enum { png_filter_type_base = 0, png_filter_none = 0x08 };

static _Thread_local int stored_line_images = 0;

void png_set_compression_level(void *png, int level) {
    pthread_once(&resolve_once, resolve);
    if (!libpng_compression_level) return;
    if (stored_line_images) {
        libpng_compression_level(png, 0);
        if (libpng_filter) libpng_filter(png, png_filter_type_base, png_filter_none);
    } else {
        libpng_compression_level(png, level);
    }
}

void scantext_line_images_stored(int on) { stored_line_images = on ? 1 : 0; }
int scantext_line_images_are_stored(void) { return stored_line_images; }

int scantext_line_images_hooked(void) {
    return dlsym(RTLD_DEFAULT, "png_set_compression_level") == (void *)&png_set_compression_level;
}

// MARK: OpenMP regions

static _Thread_local int inline_openmp = 0;
static _Thread_local unsigned long inline_regions = 0;
// The `parallel sections` region running inline on this thread, if any: the next section to
// hand out (1-based, as GOMP_sections_next numbers them) and how many there are.
static _Thread_local int in_sections = 0;
static _Thread_local unsigned sections_next = 0, sections_count = 0;

// Runs a region's body on this thread. `sections` is how many sections it hands out through
// GOMP_sections_next, or -1 for a region that is not a `parallel sections` one: a region inside
// inline sections is not one of them, and the enclosing sections resume afterwards.
static void run_inline(region_function fn, void *data, long sections) {
    inline_regions++;
    int outer = in_sections;
    unsigned next = sections_next, count = sections_count;
    in_sections = sections >= 0;
    sections_next = 1;
    sections_count = sections >= 0 ? (unsigned)sections : 0;
    fn(data);
    in_sections = outer;
    sections_next = next;
    sections_count = count;
}

void GOMP_parallel(region_function fn, void *data, unsigned threads, unsigned flags) {
    if (inline_openmp) {
        run_inline(fn, data, -1);
        return;
    }
    pthread_once(&resolve_once, resolve);
    if (libgomp_parallel) libgomp_parallel(fn, data, threads, flags);
}

void GOMP_parallel_sections(region_function fn, void *data, unsigned threads, unsigned count, unsigned flags) {
    if (inline_openmp) {
        run_inline(fn, data, count);
        return;
    }
    pthread_once(&resolve_once, resolve);
    if (libgomp_parallel_sections) libgomp_parallel_sections(fn, data, threads, count, flags);
}

unsigned GOMP_sections_next(void) {
    if (in_sections) {
        if (sections_next <= sections_count) return sections_next++;
        return 0;
    }
    pthread_once(&resolve_once, resolve);
    return libgomp_sections_next ? libgomp_sections_next() : 0;
}

void GOMP_sections_end_nowait(void) {
    if (in_sections) return;
    pthread_once(&resolve_once, resolve);
    if (libgomp_sections_end_nowait) libgomp_sections_end_nowait();
}

void scantext_openmp_inline(int on) { inline_openmp = on ? 1 : 0; }
int scantext_openmp_is_inline(void) { return inline_openmp; }
unsigned long scantext_openmp_inline_regions(void) { return inline_regions; }

int scantext_openmp_hooked(void) {
    return dlsym(RTLD_DEFAULT, "GOMP_parallel") == (void *)&GOMP_parallel
        && dlsym(RTLD_DEFAULT, "GOMP_parallel_sections") == (void *)&GOMP_parallel_sections
        && dlsym(RTLD_DEFAULT, "GOMP_sections_next") == (void *)&GOMP_sections_next
        && dlsym(RTLD_DEFAULT, "GOMP_sections_end_nowait") == (void *)&GOMP_sections_end_nowait;
}
