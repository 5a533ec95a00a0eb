/// Exit codes, stable and documented in `--help` and the README.
public enum ExitStatus {
    /// Every input done.
    public static let success: Int32 = 0
    /// Some inputs failed; the others were done.
    public static let someFailed: Int32 = 1
    /// Nothing could start: language data missing, tessdata unreadable, outputs not writable.
    public static let setupFailed: Int32 = 2
    /// Bad command line (swift-argument-parser's EX_USAGE).
    public static let usage: Int32 = 64
    /// Standard output was closed by its reader (`| head`), as a SIGPIPE death would report.
    public static let outputClosed: Int32 = 141
    /// Interrupted by SIGINT or SIGTERM (after finishing or dropping the pages in progress).
    public static let interrupted: Int32 = 130

    public static let helpText = """
        EXIT STATUS:
          0    every input was processed
          1    some inputs failed (each named on stderr); the rest were processed
          2    could not start (missing language data, bad --tessdata, an output
               directory or --errors file that cannot be created)
          64   usage error (unknown option, bad value)
          130  interrupted by Ctrl-C (SIGINT) or SIGTERM
          141  stdout was closed early by its reader (e.g. | head)
        """
}
