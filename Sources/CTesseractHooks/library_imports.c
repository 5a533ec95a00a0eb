#define _GNU_SOURCE
#include "tesseract_hooks.h"

#include <dlfcn.h>
#include <elf.h>
#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

// Reads the undefined symbols of a loaded library from its file's .dynsym section: the
// functions it takes from other libraries. Every offset is checked against the file's size.

static int starts_with_any(const char *name, const char *const *prefixes, int count) {
    for (int i = 0; i < count; i++) {
        if (strncmp(name, prefixes[i], strlen(prefixes[i])) == 0) return 1;
    }
    return 0;
}

long scantext_library_imports(const char *anchor, const char *const *prefixes, int count, char *out, size_t capacity) {
    void *symbol = dlsym(RTLD_DEFAULT, anchor);
    Dl_info info;
    if (!symbol || !dladdr(symbol, &info) || !info.dli_fname) return -1;
    int fd = open(info.dli_fname, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return -1;
    struct stat st;
    if (fstat(fd, &st) != 0 || st.st_size < (off_t)sizeof(Elf64_Ehdr)) { close(fd); return -1; }
    size_t size = (size_t)st.st_size;
    const unsigned char *file = mmap(NULL, size, PROT_READ, MAP_PRIVATE, fd, 0);
    close(fd);
    if (file == MAP_FAILED) return -1;

    long written = -1;
    const Elf64_Ehdr *header = (const Elf64_Ehdr *)file;
    if (memcmp(header->e_ident, ELFMAG, SELFMAG) != 0 || header->e_ident[EI_CLASS] != ELFCLASS64) goto done;
    if (header->e_shentsize != sizeof(Elf64_Shdr) || header->e_shoff > size
        || (size - header->e_shoff) / sizeof(Elf64_Shdr) < header->e_shnum) goto done;
    const Elf64_Shdr *sections = (const Elf64_Shdr *)(file + header->e_shoff);
    for (int s = 0; s < header->e_shnum; s++) {
        const Elf64_Shdr *dynsym = &sections[s];
        if (dynsym->sh_type != SHT_DYNSYM || dynsym->sh_link >= header->e_shnum) continue;
        const Elf64_Shdr *strings = &sections[dynsym->sh_link];
        if (dynsym->sh_offset > size || dynsym->sh_size > size - dynsym->sh_offset) goto done;
        if (strings->sh_offset > size || strings->sh_size > size - strings->sh_offset) goto done;
        const Elf64_Sym *symbols = (const Elf64_Sym *)(file + dynsym->sh_offset);
        const char *names = (const char *)(file + strings->sh_offset);
        size_t used = 0;
        if (capacity > 0) out[0] = 0;
        for (size_t i = 0; i < dynsym->sh_size / sizeof(Elf64_Sym); i++) {
            if (symbols[i].st_shndx != SHN_UNDEF || symbols[i].st_name >= strings->sh_size) continue;
            const char *name = names + symbols[i].st_name;
            size_t length = strnlen(name, strings->sh_size - symbols[i].st_name);
            if (length == 0 || length == strings->sh_size - symbols[i].st_name) continue;
            if (!starts_with_any(name, prefixes, count)) continue;
            if (used + length + 2 > capacity) goto done;
            memcpy(out + used, name, length);
            used += length;
            out[used++] = '\n';
            out[used] = 0;
        }
        written = (long)used;
        break;
    }
done:
    munmap((void *)file, size);
    return written;
}

// What libtesseract may import from OpenMP for the inline regions to stand in for libgomp: the
// four entry points hooked, and the two queries a team of one answers the same inline.
static const char *const supported_openmp[] = {
    "GOMP_parallel", "GOMP_parallel_sections", "GOMP_sections_next", "GOMP_sections_end_nowait",
    "omp_get_thread_num", "omp_get_num_threads",
};

long scantext_tesseract_openmp_imports(char *out, size_t capacity) {
    static const char *const prefixes[] = {"GOMP_", "omp_"};
    return scantext_library_imports("TessBaseAPICreate", prefixes, 2, out, capacity);
}

int scantext_openmp_imports_supported(void) {
    char list[4096];
    long length = scantext_tesseract_openmp_imports(list, sizeof list);
    if (length < 0) return 0;
    int seen[sizeof supported_openmp / sizeof *supported_openmp] = {0};
    for (char *line = list, *end; *line; line = end + 1) {
        end = strchr(line, '\n');
        if (!end) return 0;
        *end = 0;
        int known = 0;
        for (size_t i = 0; i < sizeof supported_openmp / sizeof *supported_openmp; i++) {
            if (strcmp(line, supported_openmp[i]) == 0) { seen[i] = 1; known = 1; }
        }
        if (!known) return 0;
    }
    // Every hooked entry point must be imported too, or Tesseract opens regions some other way.
    for (int i = 0; i < 4; i++) if (!seen[i]) return 0;
    return 1;
}

int scantext_line_images_written_by_leptonica(void) {
    static const char *const prefixes[] = {"png_set_compression_level"};
    char list[256];
    long length = scantext_library_imports("pixWriteMemPng", prefixes, 1, list, sizeof list);
    return length > 0;
}
