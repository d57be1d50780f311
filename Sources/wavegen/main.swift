import WavegenCLI

Wavegen.main()
