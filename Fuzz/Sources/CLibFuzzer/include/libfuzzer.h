#ifndef SCANTEXT_LIBFUZZER_H
#define SCANTEXT_LIBFUZZER_H
#include <stddef.h>
#include <stdint.h>
// libFuzzer's entry point for programs with their own main (SwiftPM links every executable's
// main to MODULE_main, so a target cannot rely on libFuzzer's main).
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));
#endif
