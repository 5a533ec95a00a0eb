import ScanCLI

ScantextCommand.main()
