import ScanCLI

ScantextCommand.requireKernelCPU()
ScantextCommand.keepFreedMemoryForReuse()
ScantextCommand.main()
