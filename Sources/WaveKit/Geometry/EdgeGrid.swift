/// A uniform grid over a polygon's edges, so that the nearest edge and the edges a horizontal ray
/// crosses are found among a few rather than all: every edge is listed in each cell its bounding
/// box meets, and in each horizontal band its height meets. Queries test exactly the predicates
/// the plain loops test, on a subset that holds every edge that can matter, so they give the same
/// numbers bit for bit (`PolygonEdges.signedDistance` against `referenceSignedDistance`).
struct EdgeGrid: Sendable {
    /// The grid's top-left corner and cell side, output pixels.
    let ox: Double, oy: Double, cell: Double
    let columns: Int, rows: Int
    /// Edges of cell (i, j) (index j × columns + i): cellEdges[cellStart[c]..<cellStart[c + 1]].
    let cellStart: [Int32], cellEdges: [Int32]
    /// Edges whose height meets band j (rows of the grid): bandEdges[bandStart[j]..<bandStart[j + 1]].
    let bandStart: [Int32], bandEdges: [Int32]
    /// The lowest and highest y of any edge.
    let minY: Double, maxY: Double

    init(ax: [Double], ay: [Double], bx: [Double], by: [Double], bounds: Rect) {
        let count = ax.count
        let side = max(bounds.width, bounds.height, 1e-6)
        // About two edges a cell along the outline.
        let across = max(1, min(256, Int((Double(count) / 2).squareRoot().rounded(.up))))
        cell = side / Double(across)
        ox = bounds.x
        oy = bounds.y
        columns = max(1, min(4096, Int((bounds.width / cell).rounded(.down)) + 1))
        rows = max(1, min(4096, Int((bounds.height / cell).rounded(.down)) + 1))
        minY = bounds.y
        maxY = bounds.y + bounds.height
        let (ox, oy, cell, columns, rows) = (ox, oy, cell, columns, rows)
        // A cell range with a little slack, so rounding never leaves an edge out of a cell it meets.
        func span(_ lo: Double, _ hi: Double, _ origin: Double, _ n: Int) -> ClosedRange<Int> {
            let a = Int(((lo - origin) / cell - 1e-6).rounded(.down)), b = Int(((hi - origin) / cell + 1e-6).rounded(.down))
            let first = max(0, min(n - 1, a)), last = max(0, min(n - 1, b))
            return first...last
        }
        var perCell = [[Int32]](repeating: [], count: columns * rows)
        var perBand = [[Int32]](repeating: [], count: rows)
        for k in 0..<count {
            let xs = span(min(ax[k], bx[k]), max(ax[k], bx[k]), ox, columns)
            let ys = span(min(ay[k], by[k]), max(ay[k], by[k]), oy, rows)
            for j in ys {
                perBand[j].append(Int32(k))
                for i in xs { perCell[j * columns + i].append(Int32(k)) }
            }
        }
        func flatten(_ lists: [[Int32]]) -> ([Int32], [Int32]) {
            var start: [Int32] = [0], items: [Int32] = []
            for l in lists {
                items += l
                start.append(Int32(items.count))
            }
            return (start, items)
        }
        (cellStart, cellEdges) = flatten(perCell)
        (bandStart, bandEdges) = flatten(perBand)
    }

    /// The band holding height y (clamped to the grid).
    @inline(__always)
    func band(_ y: Double) -> Int {
        max(0, min(rows - 1, Int(((y - oy) / cell).rounded(.down))))
    }
}
