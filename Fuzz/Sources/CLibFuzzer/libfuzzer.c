// Declarations only; see include/libfuzzer.h.
