#ifndef SCANTEXT_CTESSERACT_SHIM_H
#define SCANTEXT_CTESSERACT_SHIM_H

#include <stdio.h>
#include <tesseract/capi.h>
#include <leptonica/allheaders.h>

// glibc's allocator settings (mallopt), which Swift's Glibc module does not export; the command
// line sets them once at start (ScantextCommand.keepFreedMemoryForReuse).
#if defined(__GLIBC__)
#include <malloc.h>
#endif

// libgomp's omp.h lives in GCC's private include directory, which Swift's clang does not search.
// Tesseract is built with OpenMP and runs parallel regions of up to 4 threads per engine. The
// thread-limit ICV (OMP_THREAD_LIMIT) is read only when libgomp loads, so a setenv() in the running
// process is too late. Setting max-active-levels to 0 on a thread makes every parallel region that
// thread starts run with a single thread, whatever OMP_NUM_THREADS or OMP_THREAD_LIMIT say. The
// setting is per thread, so each recognition worker applies it before it calls Tesseract.
void omp_set_max_active_levels(int max_levels);
int omp_get_max_active_levels(void);

// Whether this CPU runs code compiled for x86-64-v3 (AVX, AVX2, FMA, BMI1/2, F16C, MOVBE,
// LZCNT, with the OS saving the AVX registers), which ScanCore's kernels are built for on
// x86-64. Read from CPUID directly: __builtin_cpu_supports depends on which runtime library
// provides the CPU model table at link time. Always 1 on other architectures.
#if defined(__x86_64__)
#include <cpuid.h>
#endif
static inline int scantext_cpu_runs_x86_64_v3(void) {
#if defined(__x86_64__)
    unsigned int a, b, c, d;
    if (!__get_cpuid(1, &a, &b, &c, &d)) return 0;
    const unsigned int leaf1 = (1u << 12) | (1u << 22) | (1u << 27) | (1u << 28) | (1u << 29);  // FMA MOVBE OSXSAVE AVX F16C
    if ((c & leaf1) != leaf1) return 0;
    unsigned int xcr0_low, xcr0_high;
    __asm__ volatile("xgetbv" : "=a"(xcr0_low), "=d"(xcr0_high) : "c"(0));
    if ((xcr0_low & 6u) != 6u) return 0;  // the OS saves XMM and YMM state
    if (!__get_cpuid_count(7, 0, &a, &b, &c, &d)) return 0;
    const unsigned int leaf7 = (1u << 3) | (1u << 5) | (1u << 8);  // BMI1 AVX2 BMI2
    if ((b & leaf7) != leaf7) return 0;
    if (!__get_cpuid(0x80000001u, &a, &b, &c, &d)) return 0;
    return (c & (1u << 5)) != 0;  // LZCNT
#else
    return 1;
#endif
}

#endif
