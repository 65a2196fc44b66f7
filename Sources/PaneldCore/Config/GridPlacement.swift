import Glibc
import PanelGauge

/// A layout's grid: the screen divided into equal cells that gauges occupy
/// instead of giving pixel rectangles.
///
/// Cells are whole pixels and all of one size: `columns` cells and
/// `columns - 1` gaps fill the width inside the margins, each cell
/// `(width - 2 * margin - (columns - 1) * gap) / columns` pixels wide, rounded
/// down; the pixels left over by the rounding are split between the left and
/// right margins (the left one gets the smaller half), and the same holds
/// for rows and the height. So gauges in cells of one span have one size, and
/// so one text size (``TypeScale``), and the grid sits centred on the screen.
struct LayoutGrid: Sendable, Equatable {
    /// Cells across; nil = chosen from the screen (``autoColumns(count:width:height:gap:margin:)``),
    /// or as many as the gauges' cells reach when any gauge names a cell.
    var columns: Int?
    /// Cells down; nil = as many as the gauges need.
    var rows: Int?
    /// Pixels between neighbouring cells, across and down.
    var gap = 0
    /// Pixels between the screen's edges and the outer cells.
    var margin = 0
    /// Line of the `"grid"` key in the layout file, for messages.
    var line: Int?

    /// Most rows or columns a grid may have (and so the largest cell index + 1).
    static let maxCells = 64
    /// Largest gap or margin, in pixels (twice the largest screen side).
    static let maxPixels = 16384

    /// The columns for `count` equal cells filled row by row: the fewest
    /// empty cells among the grids whose cells are at most
    /// ``maxAutoCellAspect`` times as long one way as the other, then the
    /// cells closest to a square (the smallest `|log(cellWidth / cellHeight)|`,
    /// the fewer columns on a tie), so circular gauges get the most room.
    /// 4 gauges on 800x480 take 2x2, 16 on 320x240 4x4; 5 on 800x480 take 3x2
    /// (one empty cell) rather than a row of five cells three times as tall as
    /// wide. When no grid keeps its cells that square, the squarest. Pure.
    static func autoColumns(count: Int, width: Int, height: Int, gap: Int, margin: Int) -> Int {
        guard count > 1 else { return 1 }
        var best: (columns: Int, empty: Int, score: Double)?
        var squarest: (columns: Int, score: Double)?
        for columns in 1...count {
            let rows = (count + columns - 1) / columns
            let w = Double(width - 2 * margin - (columns - 1) * gap) / Double(columns)
            let h = Double(height - 2 * margin - (rows - 1) * gap) / Double(rows)
            guard w > 0, h > 0 else { continue }
            let score = abs(log(w / h))
            if squarest == nil || score < squarest!.score - 1e-9 { squarest = (columns, score) }
            guard score <= log(maxAutoCellAspect) + 1e-9 else { continue }
            let empty = rows * columns - count
            if let b = best, empty > b.empty || (empty == b.empty && score >= b.score - 1e-9) { continue }
            best = (columns, empty, score)
        }
        return best?.columns ?? squarest?.columns ?? 1
    }

    /// How much longer than wide (or wider than long) an automatic grid's
    /// cells may be to be chosen for having fewer empty cells.
    static let maxAutoCellAspect = 2.5
}

/// A gauge's place in the ``LayoutGrid``: 0-based row and column of its
/// top-left cell, and how many rows and columns it spans (at least 1).
struct GridCell: Sendable, Equatable {
    var row: Int
    var column: Int
    var rowSpan = 1
    var columnSpan = 1
    /// Line of the gauge's `"cell"` key, for messages.
    var line: Int?
}

/// Where each gauge of a layout lands on one screen, and what does not fit.
struct LayoutPlacement: Sendable {
    /// Per gauge, in layout order: its rectangle in logical pixels (empty when
    /// the screen size was not given); when `issues` is not empty, a best
    /// effort (clipped to the screen).
    var frames: [IntRect]
    /// Every reason the layout does not fit, each with its line and key path.
    var issues: [LayoutIssue]
}

extension Layout {
    /// Places every gauge: an explicit `rect` as given; a gauge with a `cell`
    /// in that cell of ``grid``; every other gauge in the next free cell in
    /// reading order (left to right, then down). Without a `"grid"` key the
    /// gauges without a rect are laid out on a grid with no gap and no margin
    /// whose columns ``LayoutGrid/autoColumns(count:width:height:gap:margin:)``
    /// chooses, so one gauge fills the screen. Gauges must not overlap unless
    /// ``allowsOverlap``. Pure.
    ///
    /// - Parameter screen: the logical screen size (after rotation); nil checks
    ///   only what does not depend on it (cells beyond the grid, cells taken
    ///   twice, overlapping rects) and gives no frames.
    ///
    /// A layout with several pages is placed page by page: each page's slots
    /// on its own grid (its `grid`; else the layout's gap and margin, with
    /// columns and rows chosen for the page's own gauges), so slots of
    /// different pages may share pixels.
    func placement(screen: (width: Int, height: Int)?) -> LayoutPlacement {
        guard pages.count > 1 || pages.first?.grid != nil else { return placeSlots(screen: screen) }
        var frames = Array(repeating: IntRect(x: 0, y: 0, width: 0, height: 0), count: gauges.count)
        var issues: [LayoutIssue] = []
        let strip = screen.flatMap(pageIndicatorStrip)
        for (p, page) in pages.enumerated() {
            var one = self
            one.pages = [page]
            if let own = page.grid {
                one.grid = own
            } else if var shared = grid {
                // The layout's spacing; the columns and rows are the page's own.
                shared.columns = nil
                shared.rows = nil
                one.grid = shared
            } else {
                one.grid = nil
            }
            let members = gauges.indices.filter { gauges[$0].page == p }
            one.gauges = members.map { gauges[$0] }
            let placed = one.placeSlots(screen: screen, reserved: strip?.height ?? 0)
            // A grid that leaves no room is the page's own, or the layout's, named for the page.
            issues += placed.issues.map { issue in
                var issue = issue
                if issue.path == "gauges" || (issue.path == "grid" && page.grid != nil) {
                    issue.path = "pages[\(p)].\(issue.path)"
                }
                return issue
            }
            for (k, i) in members.enumerated() where k < placed.frames.count { frames[i] = placed.frames[k] }
        }
        if let strip, !allowsOverlap {
            for i in gauges.indices where gauges[i].rect != nil {
                let f = frames[i], common = f.intersection(strip)
                guard !common.isEmpty else { continue }
                issues.append(
                    LayoutIssue(
                        line: gauges[i].rectLine, path: (gauges[i].path ?? "gauges[\(i)]") + ".rect",
                        message:
                            "'\(gauges[i].name)' at \(f.x),\(f.y) \(f.width)x\(f.height) overlaps the page indicator at \(strip.x),\(strip.y) \(strip.width)x\(strip.height) by \(common.width)x\(common.height) px (set \"overlap\": true to allow it)"
                    ))
            }
        }
        return LayoutPlacement(frames: screen == nil ? [] : frames, issues: issues)
    }

    /// The page indicator's strip on a `screen`; nil without one (not asked
    /// for, or one page).
    func pageIndicatorStrip(screen: (width: Int, height: Int)) -> IntRect? {
        guard pageIndicator, pages.count > 1 else { return nil }
        return Layout.pageIndicatorStrip(width: screen.width, height: screen.height)
    }

    /// The page indicator's strip along the bottom of a `width` x `height`
    /// screen: 6 % of the shorter side high, at least 16 px (29 px on
    /// 800x480, 16 on 320x240), room for its dots and their space to the cells.
    static func pageIndicatorStrip(width: Int, height: Int) -> IntRect {
        let h = max(16, Int((Double(min(width, height)) * 0.06).rounded()))
        return IntRect(x: 0, y: height - h, width: width, height: h)
    }

    /// ``placement(screen:)`` of every slot on one grid, its cells in the
    /// screen less `reserved` pixels along the bottom (the page indicator's).
    private func placeSlots(screen: (width: Int, height: Int)?, reserved: Int = 0) -> LayoutPlacement {
        var issues: [LayoutIssue] = []
        let grid = self.grid ?? LayoutGrid()
        func keyPath(_ i: Int) -> String { gauges[i].path ?? "gauges[\(i)]" }
        func name(_ i: Int) -> String { "\(keyPath(i)) ('\(gauges[i].name)')" }
        let cellIndices = gauges.indices.filter { gauges[$0].cell != nil }
        let autoIndices = gauges.indices.filter { gauges[$0].rect == nil && gauges[$0].cell == nil }

        // Columns: the grid's, else as far as the cells reach, else chosen from the screen.
        let reach = cellIndices.map { gauges[$0].cell!.column + gauges[$0].cell!.columnSpan }.max()
        var columns: Int
        if let c = grid.columns {
            columns = c
        } else if let reach {
            columns = reach
        } else if let s = screen {
            columns = LayoutGrid.autoColumns(
                count: autoIndices.count, width: s.width, height: s.height - reserved, gap: grid.gap,
                margin: grid.margin)
        } else {
            columns = max(1, autoIndices.count)
        }
        columns = max(1, columns)

        // The cells that name their place, each checked against the grid and the cells before it.
        var taken: [[Int?]] = []  // taken[row][column] = the gauge there
        func ensureRows(_ n: Int) {
            while taken.count < n { taken.append(Array(repeating: nil, count: columns)) }
        }
        var cellOf: [Int: GridCell] = [:]
        for i in cellIndices {
            let cell = gauges[i].cell!
            let path = keyPath(i) + ".cell"
            // A cell that ends past the grid's last column or row: by how much.
            func beyond(_ axis: String, start: Int, span: Int, count: Int) -> LayoutIssue? {
                let over = start + span - count
                guard over > 0 else { return nil }
                return LayoutIssue(
                    line: cell.line, path: path,
                    message:
                        "\(name(i)) reaches \(axis) \(start + span - 1), \(over) \(axis)\(over == 1 ? "" : "s") beyond the grid's \(count) (\(axis)s 0 to \(count - 1))"
                )
            }
            let outside = [
                beyond("column", start: cell.column, span: cell.columnSpan, count: columns),
                grid.rows.flatMap { beyond("row", start: cell.row, span: cell.rowSpan, count: $0) },
            ].compactMap { $0 }
            issues += outside
            guard outside.isEmpty else { continue }
            ensureRows(cell.row + cell.rowSpan)
            var clash: (other: Int, row: Int, column: Int, count: Int)? = nil
            for r in cell.row..<(cell.row + cell.rowSpan) {
                for c in cell.column..<(cell.column + cell.columnSpan) {
                    if let other = taken[r][c] {
                        if clash == nil { clash = (other, r, c, 0) }
                        clash!.count += 1
                    } else {
                        taken[r][c] = i
                    }
                }
            }
            if let clash, !allowsOverlap {
                issues.append(
                    LayoutIssue(
                        line: cell.line, path: path,
                        message:
                            "\(name(i)) overlaps \(name(clash.other)) in \(clash.count) cell\(clash.count == 1 ? "" : "s") from row \(clash.row), column \(clash.column) (set \"overlap\": true to allow it)"
                    ))
            }
            cellOf[i] = cell
        }

        // Every other gauge without a rect: the next free cell, row by row.
        var next = 0
        for (n, i) in autoIndices.enumerated() {
            while true {
                let r = next / columns
                if let rows = grid.rows, r >= rows {
                    let left = autoIndices.count - n
                    issues.append(
                        LayoutIssue(
                            line: gauges[i].line, path: keyPath(i),
                            message:
                                "\(name(i)) finds no free cell: the \(columns)x\(rows) grid is full, \(left) gauge\(left == 1 ? "" : "s") more than it holds (give the grid more rows or columns)"
                        ))
                    break
                }
                ensureRows(r + 1)
                if taken[r][next % columns] == nil {
                    taken[r][next % columns] = i
                    cellOf[i] = GridCell(row: r, column: next % columns, line: gauges[i].line)
                    break
                }
                next += 1
            }
            if cellOf[i] == nil { break }
        }
        let rows = max(1, grid.rows ?? taken.count)

        // Pixels, when the screen is known.
        var frames: [IntRect] = []
        if let s = screen {
            let screenRect = IntRect(x: 0, y: 0, width: s.width, height: s.height)
            let width = s.width - 2 * grid.margin - (columns - 1) * grid.gap
            let height = s.height - reserved - 2 * grid.margin - (rows - 1) * grid.gap
            let cellWidth = width >= 0 ? width / columns : -1
            let cellHeight = height >= 0 ? height / rows : -1
            if !cellOf.isEmpty, cellWidth < 1 || cellHeight < 1 {
                let first = cellOf.keys.min()!
                var short: [String] = []
                if cellWidth < 1 {
                    short.append(
                        "\(columns - width) px too narrow for \(columns) column\(columns == 1 ? "" : "s") (\(s.width) px wide, margin \(grid.margin), gap \(grid.gap))"
                    )
                }
                if cellHeight < 1 {
                    short.append(
                        "\(rows - height) px too low for \(rows) row\(rows == 1 ? "" : "s") (\(s.height - reserved) px high\(reserved > 0 ? " above the page indicator" : ""), margin \(grid.margin), gap \(grid.gap))"
                    )
                }
                issues.append(
                    LayoutIssue(
                        line: self.grid?.line ?? gauges[first].line, path: self.grid != nil ? "grid" : "gauges",
                        message:
                            "no room for \(name(first)) and the other grid cells on the \(s.width)x\(s.height) screen: \(short.joined(separator: "; "))"
                    ))
            }
            let x0 = grid.margin + (width - max(0, cellWidth) * columns) / 2
            let y0 = grid.margin + (height - max(0, cellHeight) * rows) / 2
            let cw = max(0, cellWidth)
            let ch = max(0, cellHeight)
            let design = logicalSize
            frames = gauges.indices.map { i in
                if let r = gauges[i].rect { return Layout.fit(r, drawnFor: design, on: s) }
                guard let cell = cellOf[i] else { return screenRect }
                return IntRect(
                    x: x0 + cell.column * (cw + grid.gap), y: y0 + cell.row * (ch + grid.gap),
                    width: cell.columnSpan * cw + (cell.columnSpan - 1) * grid.gap,
                    height: cell.rowSpan * ch + (cell.rowSpan - 1) * grid.gap)
            }
        }

        // Overlaps involving a rect (cells were checked cell by cell above).
        if !allowsOverlap {
            for i in gauges.indices {
                for j in 0..<i where gauges[i].rect != nil || gauges[j].rect != nil {
                    let a: IntRect
                    let b: IntRect
                    if frames.isEmpty {
                        guard let ri = gauges[i].rect, let rj = gauges[j].rect else { continue }
                        (a, b) = (ri, rj)
                    } else {
                        (a, b) = (frames[i], frames[j])
                    }
                    let common = a.intersection(b)
                    guard !common.isEmpty else { continue }
                    let key = gauges[i].rect != nil ? "rect" : "cell"
                    issues.append(
                        LayoutIssue(
                            line: gauges[i].rect != nil
                                ? gauges[i].rectLine : gauges[i].cell?.line ?? gauges[i].line,
                            path: keyPath(i) + (gauges[i].rect != nil || gauges[i].cell != nil ? "." + key : ""),
                            message:
                                "\(name(i)) at \(a.x),\(a.y) \(a.width)x\(a.height) overlaps \(name(j)) at \(b.x),\(b.y) \(b.width)x\(b.height) by \(common.width)x\(common.height) px (set \"overlap\": true to allow it)"
                        ))
                    break
                }
            }
        }
        return LayoutPlacement(frames: frames, issues: issues)
    }
}

extension Layout {
    /// A `rect` given for the layout's own screen (`mode`) placed on a screen of
    /// another size: scaled by the smaller of the two ratios, so every gauge keeps
    /// its proportions and the layout its arrangement, and centred (an 800x480
    /// layout on a 1920x1080 monitor: 2.25 times, 1800x1080 with 60 px either
    /// side). Both edges are scaled and rounded down, so rects that touch or are
    /// apart stay so. On the layout's own size, or without a `mode`, as given. Pure.
    static func fit(
        _ r: IntRect, drawnFor design: (width: Int, height: Int)?, on screen: (width: Int, height: Int)
    ) -> IntRect {
        guard let d = design, d.width > 0, d.height > 0, d != screen else { return r }
        let scale = min(Double(screen.width) / Double(d.width), Double(screen.height) / Double(d.height))
        let ox = (Double(screen.width) - Double(d.width) * scale) / 2
        let oy = (Double(screen.height) - Double(d.height) * scale) / 2
        func x(_ v: Int) -> Int { Int((ox + Double(v) * scale).rounded(.down)) }
        func y(_ v: Int) -> Int { Int((oy + Double(v) * scale).rounded(.down)) }
        let x0 = x(r.x), y0 = y(r.y)
        return IntRect(x: x0, y: y0, width: x(r.x + r.width) - x0, height: y(r.y + r.height) - y0)
    }

    /// Throws the placement's issues on a `width` x `height` screen, with the
    /// layout file's name (a layout read without a mode is checked here, once
    /// the screen is known).
    package func checkFits(width: Int, height: Int, file: String) throws(LayoutError) {
        let issues = placement(screen: (width, height)).issues
        guard issues.isEmpty else { throw LayoutError(file: file, issues: issues) }
    }
}
