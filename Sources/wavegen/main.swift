import Foundation
import WavegenCLI

exit(Wavegen.run(Array(CommandLine.arguments.dropFirst())))
