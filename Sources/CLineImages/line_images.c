#define _GNU_SOURCE
#include "line_images.h"

#include <dlfcn.h>
#include <pthread.h>

// libpng's own prototypes take png_structrp; the pointer is only passed on, so void * will do
// and this target needs no libpng headers.
typedef void (*compression_level_function)(void *png, int level);
typedef void (*filter_function)(void *png, int method, int filters);

enum { png_filter_type_base = 0, png_filter_none = 0x08 };

static _Thread_local int stored = 0;
static pthread_once_t resolve_once = PTHREAD_ONCE_INIT;
static compression_level_function libpng_compression_level = 0;
static filter_function libpng_filter = 0;

static void resolve(void) {
    libpng_compression_level = (compression_level_function)dlsym(RTLD_NEXT, "png_set_compression_level");
    libpng_filter = (filter_function)dlsym(RTLD_NEXT, "png_set_filter");
}

void png_set_compression_level(void *png, int level) {
    pthread_once(&resolve_once, resolve);
    // Only libpng calls can reach here, so libpng is loaded and both lookups succeed; the
    // checks keep a broken installation from crashing instead of compressing.
    if (!libpng_compression_level) return;
    if (stored) {
        libpng_compression_level(png, 0);
        if (libpng_filter) libpng_filter(png, png_filter_type_base, png_filter_none);
    } else {
        libpng_compression_level(png, level);
    }
}

void scantext_line_images_stored(int on) { stored = on ? 1 : 0; }

int scantext_line_images_are_stored(void) { return stored; }

int scantext_line_images_hooked(void) {
    return dlsym(RTLD_DEFAULT, "png_set_compression_level") == (void *)&png_set_compression_level;
}
