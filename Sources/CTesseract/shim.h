#ifndef SCANTEXT_CTESSERACT_SHIM_H
#define SCANTEXT_CTESSERACT_SHIM_H

#include <stdio.h>
#include <tesseract/capi.h>
#include <leptonica/allheaders.h>

// libgomp's omp.h lives in GCC's private include directory, which Swift's clang does not search.
// Tesseract is built with OpenMP and runs parallel regions of up to 4 threads per engine. The
// thread-limit ICV (OMP_THREAD_LIMIT) is read only when libgomp loads, so a setenv() in the running
// process is too late. Setting max-active-levels to 0 on a thread makes every parallel region that
// thread starts run with a single thread, whatever OMP_NUM_THREADS or OMP_THREAD_LIMIT say. The
// setting is per thread, so each recognition worker applies it before it calls Tesseract.
void omp_set_max_active_levels(int max_levels);
int omp_get_max_active_levels(void);

#endif
