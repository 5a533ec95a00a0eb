import ScanCLI

ScantextCommand.requireKernelCPU()
ScantextCommand.main()
