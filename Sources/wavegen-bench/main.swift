import Foundation

// wavegen-bench: a benchmark of the render pipeline (see `wavegen-bench --help`).
let arguments = Array(CommandLine.arguments.dropFirst())
if arguments.first == "--child" {
    exit(Child.run(Array(arguments.dropFirst())))
}
if arguments.first == "--child-idle" {
    exit(Child.idle(Array(arguments.dropFirst())))
}
if arguments.first == "reference" {
    do {
        try ReferenceCommand.run(Array(arguments.dropFirst()))
        exit(0)
    } catch {
        FileHandle.standardError.write(Data("wavegen-bench reference: \(error)\n".utf8))
        exit(1)
    }
}
do {
    let options = try Options.parse(arguments)
    try Bench(options: options).run()
} catch {
    FileHandle.standardError.write(Data("wavegen-bench: \(error)\n".utf8))
    exit(1)
}
