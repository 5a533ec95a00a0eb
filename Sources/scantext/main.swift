import ScanCLI

// Process-wide settings belong to the executable alone, never to the libraries it links.
ProcessTuning.requireKernelCPU()
ProcessTuning.keepFreedMemoryForReuse()
TesseractHooks.install()
await ScantextCommand.runFromCommandLine()
