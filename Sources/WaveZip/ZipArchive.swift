internal import CZip

/// A ZIP archive written in memory with libzip: entries in the order given, each deflated at level 9,
/// stamped 1980-01-01 00:00 (the earliest DOS time) with Unix mode 0644, so that the same entries
/// always give the same bytes.
public enum ZipArchive {
    /// One file of the archive: its path inside it (forward slashes) and its bytes.
    public struct Entry: Sendable {
        public var path: String
        public var bytes: [UInt8]

        public init(path: String, bytes: [UInt8]) {
            self.path = path
            self.bytes = bytes
        }
    }

    /// DOS date of 1980-01-01: (year − 1980) << 9 | month << 5 | day.
    static let dosDate: UInt16 = 1 << 5 | 1
    /// DOS time 00:00:00.
    static let dosTime: UInt16 = 0
    /// Unix regular file, mode 0644, as the high 16 bits of the external attributes.
    static let unixAttributes: UInt32 = 0o100644 << 16
    static let hostUnix: UInt8 = 3

    /// libzip's version, as the library reports it ("1.7.3").
    public static var libraryVersion: String { String(cString: zip_libzip_version()) }

    /// The archive holding `entries`, in that order.
    public static func write(_ entries: [Entry]) throws(ZipError) -> [UInt8] {
        var error = zip_error_t()
        zip_error_init(&error)
        defer { zip_error_fini(&error) }
        guard let source = zip_source_buffer_create(nil, 0, 0, &error) else {
            throw ZipError(operation: "create buffer", message: String(cString: zip_error_strerror(&error)))
        }
        defer { zip_source_free(source) }
        guard let archive = zip_open_from_source(source, ZIP_TRUNCATE, &error) else {
            throw ZipError(operation: "open", message: String(cString: zip_error_strerror(&error)))
        }
        // The archive owns the source from here; keep it alive past zip_close to read it back.
        zip_source_keep(source)
        var closed = false
        defer { if !closed { zip_discard(archive) } }
        for entry in entries {
            try add(entry, to: archive)
        }
        guard zip_close(archive) == 0 else {
            throw ZipError(operation: "close", message: String(cString: zip_error_strerror(zip_get_error(archive))))
        }
        closed = true
        return try contents(of: source)
    }

    /// Adds one entry, deflated, with the fixed time stamp and attributes. libzip copies the bytes
    /// only at `zip_close`, so the buffer is handed over with the flag that lets libzip free it.
    static func add(_ entry: Entry, to archive: OpaquePointer) throws(ZipError) {
        func failure(_ operation: String) -> ZipError {
            ZipError(operation: "\(operation) \(entry.path)", message: String(cString: zip_error_strerror(zip_get_error(archive))))
        }
        let copy = UnsafeMutableRawPointer.allocate(byteCount: max(1, entry.bytes.count), alignment: 1)
        entry.bytes.withUnsafeBytes { copy.copyMemory(from: $0.baseAddress!, byteCount: entry.bytes.count) }
        guard let data = zip_source_buffer(archive, copy, UInt64(entry.bytes.count), 1) else {
            copy.deallocate()
            throw failure("buffer")
        }
        let index = zip_file_add(archive, entry.path, data, zip_flags_t(ZIP_FL_ENC_UTF_8))
        guard index >= 0 else {
            zip_source_free(data)
            throw failure("add")
        }
        let i = UInt64(index)
        guard zip_set_file_compression(archive, i, ZIP_CM_DEFLATE, 9) == 0 else { throw failure("compression of") }
        guard zip_file_set_dostime(archive, i, dosTime, dosDate, 0) == 0 else { throw failure("time of") }
        guard zip_file_set_external_attributes(archive, i, 0, hostUnix, unixAttributes) == 0 else { throw failure("attributes of") }
    }

    /// The entries of the archive `bytes`, in their order, read back with libzip (for checks: the
    /// writer's counterpart, not a general unzip).
    public static func entries(of bytes: [UInt8]) throws(ZipError) -> [Entry] {
        var error = zip_error_t()
        zip_error_init(&error)
        defer { zip_error_fini(&error) }
        let copy = UnsafeMutableRawPointer.allocate(byteCount: max(1, bytes.count), alignment: 1)
        bytes.withUnsafeBytes { if let base = $0.baseAddress { copy.copyMemory(from: base, byteCount: bytes.count) } }
        guard let source = zip_source_buffer_create(copy, UInt64(bytes.count), 1, &error) else {
            copy.deallocate()
            throw ZipError(operation: "read buffer", message: String(cString: zip_error_strerror(&error)))
        }
        guard let archive = zip_open_from_source(source, ZIP_RDONLY | ZIP_CHECKCONS, &error) else {
            zip_source_free(source)
            throw ZipError(operation: "open for reading", message: String(cString: zip_error_strerror(&error)))
        }
        defer { zip_discard(archive) }
        var entries: [Entry] = []
        for i in 0..<UInt64(max(0, zip_get_num_entries(archive, 0))) {
            func failure(_ operation: String) -> ZipError {
                ZipError(operation: "\(operation) entry \(i)", message: String(cString: zip_error_strerror(zip_get_error(archive))))
            }
            var stat = zip_stat_t()
            zip_stat_init(&stat)
            guard zip_stat_index(archive, i, 0, &stat) == 0, let name = stat.name else { throw failure("stat") }
            guard let file = zip_fopen_index(archive, i, 0) else { throw failure("open") }
            defer { zip_fclose(file) }
            var data = [UInt8](repeating: 0, count: Int(stat.size))
            let n = data.withUnsafeMutableBytes { zip_fread(file, $0.baseAddress!, UInt64($0.count)) }
            guard n == Int64(stat.size) else { throw failure("read") }
            entries.append(Entry(path: String(cString: name), bytes: data))
        }
        return entries
    }

    /// The bytes a closed archive left in its buffer source.
    static func contents(of source: OpaquePointer) throws(ZipError) -> [UInt8] {
        func failure(_ operation: String) -> ZipError {
            ZipError(operation: operation, message: String(cString: zip_error_strerror(zip_source_error(source))))
        }
        guard zip_source_open(source) == 0 else { throw failure("reopen") }
        defer { zip_source_close(source) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = chunk.withUnsafeMutableBytes { zip_source_read(source, $0.baseAddress!, UInt64($0.count)) }
            guard n >= 0 else { throw failure("read back") }
            if n == 0 { break }
            bytes += chunk[0..<Int(n)]
        }
        return bytes
    }
}
