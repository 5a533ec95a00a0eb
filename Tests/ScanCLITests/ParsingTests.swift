import ArgumentParser
import PagePreparation
import ScanBatch
@testable import ScanCLI
import ScanCore
import Testing

/// The command line parsed in process: every option reaches its group, and every usage error
/// is refused with its message before anything runs.
@Suite struct ParsingTests {
    @Test("with no subcommand, the arguments go to recognize, with its defaults")
    func defaults() throws {
        let command = try #require(try ScantextCommand.parseAsRoot(["page.png"]) as? RecognizeCommand)
        #expect(command.input.inputs == ["page.png"])
        #expect(command.format == .format(.text))
        #expect(command.crop == .mode(.auto))
        #expect(command.engine.lang == "eng" && command.engine.psm == nil && command.engine.dpi == nil)
        #expect(command.workers.jobs == nil && command.workers.maxMegapixels == 250)
        #expect(!command.input.recursive && command.input.shard == nil)
        #expect(command.batch.outputDir == nil && !command.batch.skipExisting && !command.batch.quiet)
    }

    @Test("every group gets its options")
    func groups() throws {
        let command = try #require(try ScantextCommand.parseAsRoot([
            "recognize", "-l", "eng+deu", "--psm", "6", "--dpi", "300", "--jobs", "3", "--max-megapixels", "40",
            "--crop", "1,2;30,2;30,40;1,40", "--format", "jsonl", "-r", "--include", "*.png", "--shard", "2/5",
            "-o", "out", "--skip-existing", "--errors", "e.jsonl", "-q", "scans",
        ]) as? RecognizeCommand)
        #expect(command.engine.lang == "eng+deu" && command.engine.psm == 6 && command.engine.dpi == 300)
        #expect(command.workers.jobs == 3 && command.workers.limits.maxPixels == 40_000_000)
        #expect(command.crop == .mode(.quad(Quad(topLeft: Point(1, 2), topRight: Point(30, 2), bottomRight: Point(30, 40), bottomLeft: Point(1, 40)))))
        #expect(command.format == .format(.jsonl))
        #expect(command.input.recursive && command.input.include == ["*.png"] && command.input.shard == Shard(index: 2, count: 5))
        #expect(command.batch.outputDir == "out" && command.batch.skipExisting && command.batch.errors == "e.jsonl" && command.batch.quiet)
        #expect(command.input.inputs == ["scans"])

        let detect = try #require(try ScantextCommand.parseAsRoot(["detect", "--format", "jsonl", "-r", "--shard", "1/2", "--jobs", "1", "d"]) as? DetectCommand)
        #expect(detect.format == .jsonl && detect.input.recursive && detect.input.shard == Shard(index: 1, count: 2))
        #expect(detect.workers.jobs == 1 && detect.input.inputs == ["d"])
    }

    @Test("usage errors are refused with a message that says what to do", arguments: [
        (["--bogus", "x.png"], "Unknown option '--bogus'"),
        (["--psm", "99", "x.png"], "--psm must be 0 to 13"),
        (["--dpi", "5", "x.png"], "--dpi must be 30 to 4800"),
        (["--jobs", "0", "x.png"], "--jobs must be 1 to 256"),
        (["--page-timeout", "0", "x.png"], "--page-timeout must be a positive number"),
        (["--max-megapixels", "0", "x.png"], "--max-megapixels must be 1 to 100000"),
        (["--max-pages", "0", "x.png"], "--max-pages must be 1 to 10000000"),
        (["--crop", "1,2;3", "x.png"], "--crop"),
        (["--format", "pdfx", "x.png"], "--format"),
        (["-", "-"], "can be given only once"),
        (["-o", "x", "-"], "cannot be used with --output-dir"),
        (["--skip-existing", "a.png"], "--skip-existing needs --output-dir"),
        (["--include", "*.png", "d"], "add --recursive"),
        (["--shard", "4/3", "a.png"], "--shard"),
        (["--progress", "--quiet", "a.png"], "contradict each other"),
        (["--format", "none", "a.png"], "add --save-pages DIR"),
        (["--format", "none", "--save-pages", "p", "-o", "x", "a.png"], "drop --output-dir"),
        (["detect", "--exclude", "x", "d"], "add --recursive"),
        (["detect", "--jobs", "300", "d"], "--jobs must be 1 to 256"),
        (["detect", "--format", "tsv", "d"], "--format"),
        (["serve", "--port", "70000"], "--port must be 0 to 65535"),
        (["serve", "--max-upload-mb", "0"], "--max-upload-mb must be 1 to 100000"),
        (["serve", "--grace=-1"], "--grace must be zero or more seconds"),
        (["serve", "--psm", "14"], "--psm must be 0 to 13"),
        (["serve", "--token-file", "/nonexistent/token"], "--token-file /nonexistent/token cannot be read"),
    ])
    func usageErrors(_ arguments: [String], _ fragment: String) {
        do {
            _ = try ScantextCommand.parseAsRoot(arguments)
            Issue.record("\(arguments) was accepted")
        } catch {
            #expect(ScantextCommand.exitCode(for: error) == .validationFailure, "\(arguments)")
            let message = ScantextCommand.fullMessage(for: error)
            #expect(message.contains(fragment), "\(arguments): \(message)")
        }
    }
}
