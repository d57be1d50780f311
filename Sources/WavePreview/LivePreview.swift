import WavePlatform
import WaveBuild
import WaveKit

/// The live preview server end to end (`wavegen serve`): listens on 127.0.0.1, renders and watches
/// the inputs (`LiveSession`), answers the page, its event stream and the rendered files, and
/// returns when SIGINT, SIGTERM or SIGHUP comes.
public enum LivePreview {
    /// Serves `inputs` (manifests or presets) on `port` (0: a free one); `listening` gets the
    /// page's address once the port is bound. A port that cannot be bound is exit status 69.
    public static func serve(_ inputs: [String], port: UInt16, overrides: [PresetOverride], workers: Int, log: LiveLog, quiet: Bool,
                             version: String, listening: (String) -> Void) throws(WaveError) {
        let server = try HTTPServer.listen(port: port)
        let stop = StopSignals.install()
        let session = LiveSession(inputs: inputs, overrides: overrides, workers: workers, console: log, quiet: quiet, version: version)
        let events = EventStream(initial: session.state())
        listening("http://127.0.0.1:\(server.port)/")
        session.start(published: events.publish)
        server.run(until: stop) { request, connection in
            switch LiveRoutes.answer(request, files: session.file(named:)) {
            case let .response(response):
                _ = connection.send(response.serialized(includeBody: request.method != "HEAD"))
            case .events:
                if request.method == "HEAD" {
                    _ = connection.send(EventStream.responseHead)
                } else {
                    events.serve(connection)
                }
            }
        }
        session.stop()
        events.stop()
    }
}
