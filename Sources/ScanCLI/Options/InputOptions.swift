import ArgumentParser
import ScanBatch

/// Which files a run takes: directory walks, filters and sharding, shared by the commands.
struct InputOptions: ParsableArguments {
    @Flag(name: [.customShort("r"), .long], help: "Read the images in directories given as inputs, and in their subdirectories.")
    var recursive = false

    @Option(help: ArgumentHelp(
        "Only take files from directories that match this glob (repeatable). A pattern with '/' matches the path below the directory given, otherwise the file name.",
        valueName: "glob"))
    var include: [String] = []

    @Option(help: ArgumentHelp("Leave out files and directories that match this glob (repeatable), as for --include.", valueName: "glob"))
    var exclude: [String] = []

    @Option(help: ArgumentHelp(
        "Take only shard K of N: the inputs whose relative path hashes to K (FNV-1a 64, mod N, plus 1). Runs K=1…N together take every input once.",
        valueName: "k/n"))
    var shard: Shard?

    @Argument(help: ArgumentHelp("Image or PDF files or, with -r, directories; '-' reads standard input.", valueName: "input"))
    var inputs: [String] = []

    func validate() throws {
        if (!include.isEmpty || !exclude.isEmpty) && !recursive {
            throw ValidationError("--include and --exclude filter the files found in directories; add --recursive")
        }
        if inputs.filter({ $0 == "-" }).count > 1 { throw ValidationError("'-' (standard input) can be given only once") }
    }

    func walker(excluding directories: Set<FileIdentity> = []) -> InputWalker {
        InputWalker(roots: inputs, options: InputWalker.Options(
            recursive: recursive, include: include, exclude: exclude, excludedDirectories: directories))
    }
}
