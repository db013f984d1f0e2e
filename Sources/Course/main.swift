import Foundation

/// `swift run Course COMMAND [ID]`: the course's exercises, checked.
let usage = """
    Course: the walkthrough's exercises, prepared, checked and hinted.

    Usage: swift run Course COMMAND [ID]

      list          every exercise with its state, and your progress
      start ID      prepare exercise ID (for a write exercise, takes the code away and leaves a // TODO)
      check [ID]    build the step, run the exercise's scenarios and judge them; a pass is recorded
      hint [ID]     one more hint each time
      reset [ID]    put back the code as it was before start (a passed exercise stays done);
                    reset --all does it for every exercise started
      watch [ID]    check now and again every time you save, until Ctrl-C
      verify [ID]   for teachers and CI: prove every exercise (or those whose id starts with ID) judges
                    as it should, in a scratch copy (--here: in this folder, for a copy made to be thrown away)
      coverage [ID] for teachers and CI: which code regions of each write and change exercise (or those
                    whose id starts with ID) its scenarios run, built with coverage in .build/coverage

    Without ID, check, hint, reset and watch take the exercise you started last.
    Progress is kept in .course/ (ignored by git).

    """

/// Reads the command line and runs the command.
enum CourseCommand {
    static func fail(_ message: String, code: Int32) -> Never {
        FileHandle.standardError.write(Data("Course: \(message)\n".utf8))
        exit(code)
    }

    static func main() -> Never {
        let arguments = Array(CommandLine.arguments.dropFirst())
        guard let command = arguments.first, !["--help", "-h", "help"].contains(command) else {
            Course.say(usage)
            exit(arguments.isEmpty ? 2 : 0)
        }
        guard let package = WorkbookPackage.find() else {
            fail("run me from the workbook's folder (the one with Package.swift)", code: 2)
        }
        var course: Course
        do {
            course = try Course(package: package)
        } catch {
            fail("\(error)", code: 2)
        }
        // A student's command needs every exercise's words; `verify` names every mismatch itself.
        if command != "verify", let missing = course.texts.missingItem(among: Exercises.all) {
            fail(missing, code: 2)
        }
        let id = arguments.count > 1 ? arguments[1] : nil

        /// The exercise the argument names, or the current one.
        func exercise() -> Exercise {
            guard let id = id ?? course.progress.current else {
                fail("which exercise? Give its id, for example: swift run Course start 1.1", code: 2)
            }
            guard let found = Exercises.named(id) else {
                fail("no exercise \(id). `swift run Course list` shows them all.", code: 2)
            }
            return found
        }

        do {
            switch command {
            case "list": course.list()
            case "start": try course.start(exercise())
            case "check": exit(try course.check(exercise()) ? 0 : 1)
            case "hint": try course.hint(exercise())
            case "reset" where id == "--all": try course.resetAll()
            case "reset": try course.reset(exercise())
            case "watch": try course.watch(exercise())
            case "verify":
                let here = arguments.contains("--here")
                let prefix = arguments.dropFirst().first { $0 != "--here" } ?? ""
                exit(try Verify.run(prefix: prefix, from: package, here: here) ? 0 : 1)
            case "coverage":
                exit(try Coverage.run(prefix: id ?? "", package: package, texts: course.texts) ? 0 : 1)
            default: fail("unknown command '\(command)'. Try: swift run Course --help", code: 2)
            }
        } catch {
            fail("\(error)", code: 1)
        }
        exit(0)
    }
}

CourseCommand.main()
