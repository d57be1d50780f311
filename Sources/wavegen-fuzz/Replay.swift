import Foundation

// Built with -DFUZZING and -parse-as-library (scripts/dev/fuzz), there is no entry point here and
// libFuzzer's own main drives LLVMFuzzerTestOneInput. In an ordinary build the program replays
// inputs through the same code instead:
//
//     swift run wavegen-fuzz FILE...     # e.g. a crash file scripts/dev/fuzz saved
#if !FUZZING
@main
enum Replay {
    static func main() {
        let files = Array(CommandLine.arguments.dropFirst())
        if files.isEmpty || files.contains("-h") || files.contains("--help") {
            print("usage: wavegen-fuzz FILE...   (runs each file through the fuzz target; scripts/dev/fuzz runs libFuzzer)")
            exit(files.isEmpty ? 64 : 0)
        }
        for file in files {
            guard let data = FileManager.default.contents(atPath: file) else {
                FileHandle.standardError.write(Data("wavegen-fuzz: \(file): cannot be read\n".utf8))
                exit(66)
            }
            FuzzTarget.run([UInt8](data))
            print("ok \(file)")
        }
    }
}
#endif

#if FUZZING
/// libFuzzer's driver, linked in by -sanitize=fuzzer.
@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<Int32>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32) -> Int32

/// The entry point SwiftPM links a debug executable's `main` to (it renames the module's entry
/// point so that tests can import executables); it hands over to libFuzzer. Builds that do not
/// rename it use libFuzzer's own `main`, which calls LLVMFuzzerTestOneInput all the same.
@_cdecl("wavegen_fuzz_main")
func wavegenFuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> Int32 {
    var argc = argc
    var argv = argv
    return LLVMFuzzerRunDriver(&argc, &argv) { data, size in wavegenFuzzTestOneInput(data, size) }
}
#endif
