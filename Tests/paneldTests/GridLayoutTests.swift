import Glibc
import PanelGauge
import Testing

@testable import PaneldCore

/// The layout's grid and flow: rectangles computed for the screen, pixel for
/// pixel as worked out by hand in each test, and every way a grid can fail to fit.
@Suite struct GridLayoutTests {
    private func frames(_ json: String, screen: (Int, Int)? = nil) throws -> [IntRect] {
        let l = try LayoutReader.parse(Array(json.utf8))
        let placed = l.placement(screen: screen ?? l.logicalSize!)
        #expect(placed.issues.isEmpty, "\(placed.issues)")
        return placed.frames
    }

    private func sixGauges(_ extra: String = "") -> String {
        (0..<6).map { #"{"name": "g\#($0)"\#(extra)}"# }.joined(separator: ", ")
    }

    /// 320 - 2 * 8 - 2 * 8 = 288 = 3 * 96 across; 240 - 2 * 8 - 8 = 216 = 2 * 108 down.
    @Test func aThreeByTwoGridWithGapAndMargin() throws {
        let f = try frames(
            #"{"mode": "320x240", "grid": {"columns": 3, "rows": 2, "gap": 8, "margin": 8}, "gauges": [\#(sixGauges())]}"#
        )
        #expect(
            f == [
                IntRect(x: 8, y: 8, width: 96, height: 108), IntRect(x: 112, y: 8, width: 96, height: 108),
                IntRect(x: 216, y: 8, width: 96, height: 108), IntRect(x: 8, y: 124, width: 96, height: 108),
                IntRect(x: 112, y: 124, width: 96, height: 108), IntRect(x: 216, y: 124, width: 96, height: 108),
            ])
    }

    /// 800 - 2 * 5 - 2 * 10 = 770: cells of 256 and 2 px left over, one on
    /// each side (x from 6); 480 - 10 - 10 = 460 = 2 * 230. Spans cover the
    /// gaps between their cells; gauges without a cell take the free cells in
    /// reading order.
    @Test func spansAndFreeCellsInReadingOrder() throws {
        let f = try frames(
            """
            {"mode": "800x480", "grid": {"columns": 3, "rows": 2, "gap": 10, "margin": 5}, "gauges": [
              {"name": "wide", "cell": {"row": 0, "column": 0, "columnSpan": 2}},
              {"name": "tall", "cell": {"row": 0, "column": 2, "rowSpan": 2}},
              {"name": "c"}, {"name": "d"}]}
            """)
        #expect(
            f == [
                IntRect(x: 6, y: 5, width: 522, height: 230), IntRect(x: 538, y: 5, width: 256, height: 470),
                IntRect(x: 6, y: 245, width: 256, height: 230), IntRect(x: 272, y: 245, width: 256, height: 230),
            ])
    }

    /// Without a grid: columns whose cells are closest to square. Six gauges
    /// on 320x240 take 3 columns (106.7x120; 2 would give 160x80, 4 80x120);
    /// 3 * 106 = 318 leaves 1 px each side.
    @Test func gaugesWithoutPlacesFlowIntoSquareishCells() throws {
        let f = try frames(#"{"mode": "320x240", "gauges": [\#(sixGauges())]}"#)
        #expect(
            f == [
                IntRect(x: 1, y: 0, width: 106, height: 120), IntRect(x: 107, y: 0, width: 106, height: 120),
                IntRect(x: 213, y: 0, width: 106, height: 120), IntRect(x: 1, y: 120, width: 106, height: 120),
                IntRect(x: 107, y: 120, width: 106, height: 120), IntRect(x: 213, y: 120, width: 106, height: 120),
            ])
        // One gauge fills the screen, as it always did.
        #expect(
            try frames(#"{"gauges": [{"name": "a"}]}"#, screen: (320, 240)) == [
                IntRect(x: 0, y: 0, width: 320, height: 240)
            ])
        #expect(LayoutGrid.autoColumns(count: 2, width: 800, height: 480, gap: 0, margin: 0) == 2)
        #expect(LayoutGrid.autoColumns(count: 4, width: 800, height: 480, gap: 0, margin: 0) == 2)
        #expect(LayoutGrid.autoColumns(count: 4, width: 480, height: 480, gap: 0, margin: 0) == 2)
        #expect(LayoutGrid.autoColumns(count: 3, width: 240, height: 800, gap: 0, margin: 0) == 1)
    }

    /// Issue 38 item 5: the automatic grid leaves the fewest cells empty, then
    /// takes the squarest cells; a page without a grid gets its own.
    @Test func theAutomaticGridLeavesNoHoles() throws {
        func cols(_ n: Int, _ w: Int, _ h: Int) -> Int {
            LayoutGrid.autoColumns(count: n, width: w, height: h, gap: 0, margin: 0)
        }
        #expect(cols(4, 800, 480) == 2)
        #expect(cols(16, 320, 240) == 4)
        #expect(cols(16, 800, 480) == 4)
        #expect(cols(6, 320, 240) == 3)
        #expect(cols(9, 800, 480) == 3)
        #expect(cols(8, 800, 480) == 4)
        #expect(cols(3, 800, 480) == 3)
        // A prime count: one empty cell rather than cells 3:1.
        #expect(cols(5, 800, 480) == 3)
        #expect(cols(7, 800, 480) == 4)
        let sixteen = (0..<16).map { #"{"name": "g\#($0)"}"# }.joined(separator: ", ")
        let f = try frames(#"{"mode": "320x240", "gauges": [\#(sixteen)]}"#)
        #expect(f.allSatisfy { $0.width == 80 && $0.height == 60 })
        #expect(f.last == IntRect(x: 240, y: 180, width: 80, height: 60))
        // Two pages: the top-level grid's 3 columns are not the 2-gauge page's.
        let json = #"""
            {"mode": "800x480", "grid": {"columns": 3, "gap": 10},
             "pages": [{"name": "a", "gauges": [{"name": "a1"}, {"name": "a2"}, {"name": "a3"}]},
                       {"name": "b", "gauges": [{"name": "b1"}, {"name": "b2"}]}]}
            """#
        let p = try LayoutReader.parse(Array(json.utf8)).placement(screen: (800, 480))
        #expect(p.issues.isEmpty)
        #expect(p.frames[3] == IntRect(x: 0, y: 0, width: 395, height: 480))
        #expect(p.frames[4] == IntRect(x: 405, y: 0, width: 395, height: 480))
    }

    /// A grid's rows and columns without a count: columns from the screen, rows as needed.
    @Test func aGridWithOnlyAGapFlows() throws {
        // Two gauges on 800x480 with gap 20: 2 columns of (800 - 20) / 2 = 390.
        let f = try frames(#"{"mode": "800x480", "grid": {"gap": 20}, "gauges": [{"name": "a"}, {"name": "b"}]}"#)
        #expect(f == [IntRect(x: 0, y: 0, width: 390, height: 480), IntRect(x: 410, y: 0, width: 390, height: 480)])
        // Columns given, rows as needed: 5 gauges in 2 columns take 3 rows of 160.
        let g = try frames(
            #"{"mode": "320x480", "grid": {"columns": 2}, "gauges": [\#((0..<5).map { #"{"name": "g\#($0)"}"# }.joined(separator: ", "))]}"#
        )
        #expect(g.last == IntRect(x: 0, y: 320, width: 160, height: 160))
    }

    /// Cells are computed on the screen after rotation: 800x480 turned 90
    /// degrees is 480 wide and 800 high, so two rows are 480x400.
    @Test func cellsFollowTheRotatedScreen() throws {
        let json =
            #"{"mode": "800x480", "rotation": 90, "grid": {"columns": 1, "rows": 2}, "gauges": [{"name": "a"}, {"name": "b"}]}"#
        #expect(
            try frames(json) == [
                IntRect(x: 0, y: 0, width: 480, height: 400), IntRect(x: 0, y: 400, width: 480, height: 400),
            ])
        let l = try LayoutReader.parse(Array(json.utf8))
        let r = LayoutScene(layout: l, width: 480, height: 800)
        let img = Image(width: 480, height: 800)
        r.drawAll(img.surface, values: ["a": 50, "b": 50])
        // Each ring is drawn in its own half: both halves hold more than the background.
        for half in [IntRect(x: 0, y: 0, width: 480, height: 400), IntRect(x: 0, y: 400, width: 480, height: 400)] {
            #expect(LayoutSceneTests().colors(img.surface, in: half).count > 1)
        }
    }

    /// Rects still work beside cells, as long as nothing overlaps.
    @Test func rectsAndCellsTogether() throws {
        let f = try frames(
            #"{"grid": {"columns": 2, "rows": 1}, "gauges": [{"name": "a", "rect": [200, 0, 100, 100]}, {"name": "b", "cell": {"row": 0, "column": 0}}]}"#,
            screen: (300, 100))
        #expect(f == [IntRect(x: 200, y: 0, width: 100, height: 100), IntRect(x: 0, y: 0, width: 150, height: 100)])
    }

    @Test(arguments: [
        // A cell beyond the grid, by how much.
        (
            #"{"grid": {"columns": 3, "rows": 2}, "gauges": [{"name": "a", "cell": {"row": 0, "column": 2, "columnSpan": 2}}]}"#,
            1, "gauges[0].cell", "gauges[0] ('a') reaches column 3, 1 column beyond the grid's 3 (columns 0 to 2)"
        ),
        (
            "{\"grid\": {\"columns\": 3, \"rows\": 2}, \"gauges\": [\n{\"name\": \"a\"},\n{\"name\": \"b\", \"cell\": {\"row\": 1, \"column\": 0, \"rowSpan\": 3}}]}",
            3, "gauges[1].cell", "gauges[1] ('b') reaches row 3, 2 rows beyond the grid's 2 (rows 0 to 1)"
        ),
        // Two cells that share a cell.
        (
            "{\"grid\": {\"columns\": 2, \"rows\": 1}, \"gauges\": [\n{\"name\": \"a\", \"cell\": {\"row\": 0, \"column\": 0, \"columnSpan\": 2}},\n{\"name\": \"b\", \"cell\": {\"row\": 0, \"column\": 1}}]}",
            3, "gauges[1].cell", "gauges[1] ('b') overlaps gauges[0] ('a') in 1 cell from row 0, column 1"
        ),
        // More gauges than free cells.
        (
            "{\"grid\": {\"columns\": 2, \"rows\": 1}, \"gauges\": [{\"name\": \"a\"}, {\"name\": \"b\"},\n{\"name\": \"c\"}]}",
            2, "gauges[2]", "gauges[2] ('c') finds no free cell: the 2x1 grid is full, 1 gauge more than it holds"
        ),
        // Margins and gaps that leave no room: 100 - 2 * 10 - 2 * 40 = 0 px for 3 columns, 3 short.
        (
            "{\"mode\": \"100x100\",\n\"grid\": {\"columns\": 3, \"gap\": 40, \"margin\": 10}, \"gauges\": [{\"name\": \"a\"}]}",
            2, "grid",
            "no room for gauges[0] ('a') and the other grid cells on the 100x100 screen: 3 px too narrow for 3 columns"
        ),
        (
            #"{"mode": "100x100", "grid": {"rows": 2, "margin": 50}, "gauges": [{"name": "a"}]}"#, 1, "grid",
            "2 px too low for 2 rows (100 px high, margin 50, gap 0)"
        ),
        // Overlapping rects, a rect over a cell, by how much.
        (
            "{\"gauges\": [{\"name\": \"a\", \"rect\": [0, 0, 50, 50]},\n{\"name\": \"b\", \"rect\": [40, 30, 50, 50]}]}",
            2,
            "gauges[1].rect", "gauges[1] ('b') at 40,30 50x50 overlaps gauges[0] ('a') at 0,0 50x50 by 10x20 px"
        ),
        (
            "{\"mode\": \"200x100\", \"gauges\": [{\"name\": \"a\", \"rect\": [0, 0, 50, 50]},\n{\"name\": \"b\"}]}", 2,
            "gauges[1]",
            "gauges[1] ('b') at 0,0 200x100 overlaps gauges[0] ('a') at 0,0 50x50 by 50x50 px (set \"overlap\": true to allow it)"
        ),
        // Malformed keys.
        (
            #"{"gauges": [{"name": "a", "rect": [0, 0, 5, 5], "cell": {"row": 0, "column": 0}}]}"#, 1,
            "gauges[0].cell", "give either rect or cell, not both"
        ),
        (#"{"gauges": [{"name": "a", "cell": {"row": 0}}]}"#, 1, "gauges[0].cell.column", "missing"),
        (#"{"gauges": [{"name": "a", "cell": {"row": -1, "column": 0}}]}"#, 1, "gauges[0].cell.row", "from 0 to 63"),
        (
            #"{"gauges": [{"name": "a", "cell": {"row": 0, "column": 0, "rowSpan": 0}}]}"#, 1, "gauges[0].cell.rowSpan",
            "from 1 to 64"
        ),
        (#"{"gauges": [{"name": "a", "cell": [0, 0]}]}"#, 1, "gauges[0].cell", "expected an object"),
        (
            #"{"gauges": [{"name": "a", "cell": {"row": 0, "column": 0, "col": 1}}]}"#, 1, "gauges[0].cell.col",
            "unknown key"
        ),
        (#"{"grid": {"columns": 0}, "gauges": [{"name": "a"}]}"#, 1, "grid.columns", "from 1 to 64"),
        (#"{"grid": {"gap": 2.5}, "gauges": [{"name": "a"}]}"#, 1, "grid.gap", "whole number"),
        (#"{"grid": {"spacing": 2}, "gauges": [{"name": "a"}]}"#, 1, "grid.spacing", "unknown key"),
        (#"{"overlap": "yes", "gauges": [{"name": "a"}]}"#, 1, "overlap", "expected true or false"),
    ])
    func reportsWhatDoesNotFit(json: String, line: Int, path: String, message: String) {
        let found = issues(json)
        #expect(found.count == 1, "\(found)")
        #expect(found.first?.line == line, "\(found)")
        #expect(found.first?.path == path, "\(found)")
        #expect(found.first?.message.contains(message) == true, "\(found)")
    }

    /// `"overlap": true` lets gauges overlap.
    @Test func overlapCanBeAllowed() throws {
        let json =
            #"{"overlap": true, "grid": {"columns": 2, "rows": 1}, "gauges": [{"name": "a", "rect": [0, 0, 50, 50]}, {"name": "b", "rect": [40, 30, 50, 50]}, {"name": "c", "cell": {"row": 0, "column": 0, "columnSpan": 2}}, {"name": "d", "cell": {"row": 0, "column": 1}}]}"#
        let l = try LayoutReader.parse(Array(json.utf8))
        #expect(l.allowsOverlap && l.placement(screen: (100, 50)).issues.isEmpty)
    }

    /// A layout without a mode is checked once the screen is known: at start
    /// and by `paneld render` (`checkFits`), with the grid's line.
    @Test func aLayoutWithoutAModeIsCheckedOnTheScreen() throws {
        let l = try LayoutReader.parse(
            Array("{\"gauges\": [{\"name\": \"a\"}],\n\"grid\": {\"columns\": 4, \"margin\": 30}}".utf8))
        #expect(throws: Never.self) { try l.checkFits(width: 320, height: 240, file: "l.json") }
        // 64 - 60 = 4 px for 4 columns of at least 1 px: fits; 63 does not, by 1 px.
        #expect(throws: Never.self) { try l.checkFits(width: 64, height: 64, file: "l.json") }
        do {
            try l.checkFits(width: 63, height: 64, file: "l.json")
            Issue.record("a 63 px wide screen fitted")
        } catch {
            #expect(error.description.hasPrefix("l.json: line 2: grid: no room for gauges[0] ('a')"))
            #expect(error.description.contains("1 px too narrow for 4 columns"))
        }
    }

    /// A reload whose grid leaves no room on the running display is refused
    /// with the grid's line, and the old layout stays.
    @Test func aReloadThatDoesNotFitTheDisplayChangesNothing() throws {
        let dir = TempDirectory()
        let layout = dir.file("layout.json")
        try dir.write("layout.json", #"{"gauges": [{"name": "a"}]}"#)
        let d = try DaemonProcess(
            dir, args: ["--output", "png:" + dir.file("f.png"), "--size", "64x64", "--config", layout])
        try dir.write("layout.json", "{\"gauges\": [{\"name\": \"b\"}],\n\"grid\": {\"columns\": 4, \"margin\": 31}}")
        let r = try runPaneld(["reload", "--socket", d.socketPath], in: dir)
        #expect(r.status == 1)
        #expect(
            r.out.hasPrefix("ERR layout not reloaded, the old one stays: it does not fit the 64x64 screen"), "\(r.out)")
        #expect(
            r.out.contains("line 2: grid: no room for gauges[0] ('b')") && r.out.contains("2 px too narrow"), "\(r.out)"
        )
        let c = try TestClient(d.socketPath)
        #expect(try c.ask("get a") == "a -")
    }

    /// A grid every gauge ignores is a warning.
    @Test func aGridNoGaugeUsesIsAWarning() throws {
        let l = try LayoutReader.parse(
            Array(#"{"grid": {"gap": 4}, "gauges": [{"name": "a", "rect": [0, 0, 9, 9]}]}"#.utf8))
        #expect(l.warnings.map(\.path) == ["grid"])
    }

    /// Gauges in cells of one span get one text size (their value sizes are matched).
    @Test func cellsOfOneSpanShareTheirValueSize() throws {
        let l = try LayoutReader.parse(
            Array(
                #"{"grid": {"columns": 2}, "gauges": [{"name": "a", "range": [0, 100]}, {"name": "b", "range": [0, 10000], "style": "ring", "format": "number"}]}"#
                    .utf8))
        #expect(!l.gauges[0].gauge.environment.valueSizingText.isEmpty)
    }

    /// Issue 38 item 3: one wide value (0...1e12 with 2 decimals) shrinks
    /// itself, with a warning naming it, and never its neighbours.
    @Test func aWideValueNeverShrinksItsNeighbours() throws {
        func json(_ first: String) -> String {
            #"{"mode": "800x480", "gauges": [\#(first), {"name": "cpu", "units": "%"}, {"name": "mem", "units": "%"},"#
                + #" {"name": "temp", "style": "dial", "units": "C", "range": [20, 90]}]}"#
        }
        let wide = try LayoutReader.parse(
            Array(json(#"{"name": "big", "range": [0, 1e12], "format": {"kind": "number", "decimals": 2}}"#).utf8))
        let plain = try LayoutReader.parse(Array(json(#"{"name": "disk", "units": "%"}"#).utf8))
        #expect(wide.warnings.contains { $0.path == "gauges[0]" && $0.message.contains("'big' shows its values") })
        #expect(plain.warnings.isEmpty)
        #expect(!wide.gauges[1].gauge.environment.valueSizingText.contains("1000000000000.00"))
        let frames = wide.placement(screen: (800, 480)).frames
        func sizes(_ l: Layout) -> [Double] {
            let u = LayoutScene.uniformText(l, frames: frames)
            return (0..<4).map { u.gauges[$0].gauge.currentValueSize(in: Rect(frames[$0])) ?? 0 }
        }
        let w = sizes(wide), p = sizes(plain)
        #expect(w[1] == p[1] && w[2] == p[2] && w[3] == p[3], "\(w) vs \(p)")
        #expect(w[0] < p[0], "the wide value is smaller: \(w)")
    }

    /// Six labelled gauges in a 3x2 grid at 320x240 drawn by the renderer:
    /// every gap and margin pixel is background, and every cell holds its
    /// gauge (the title's and the tint's colours). With PANELD_GRID_PNG set,
    /// the picture is written there.
    @Test func aGridPanelDrawsEachGaugeInItsCell() throws {
        let styles = [
            "ring", "accessoryCircular", "accessoryCircularCapacity", "linearCapacity", "stepped", "accessoryLinear",
        ]
        let gauges = styles.enumerated().map { i, s in
            ##"{"name": "g\##(i)", "style": "\##(s)", "label": "Gauge \##(i)", "tint": "#FF9500"}"##
        }
        let json =
            ##"{"mode": "320x240", "background": "#101418", "grid": {"columns": 3, "rows": 2, "gap": 8, "margin": 8}, "gauges": [\##(gauges.joined(separator: ", "))]}"##
        let l = try LayoutReader.parse(Array(json.utf8))
        let cells = l.placement(screen: (320, 240)).frames
        let img = Image(width: 320, height: 240)
        LayoutScene(layout: l, width: 320, height: 240).drawAll(
            img.surface, values: Dictionary(uniqueKeysWithValues: (0..<6).map { ("g\($0)", 60.0) }))
        if let path = getenv("PANELD_GRID_PNG").map({ String(cString: $0) }) { try PNG.write(img.surface, to: path) }
        let background: [UInt8] = [0x10, 0x14, 0x18]
        let test = LayoutSceneTests()
        for y in 0..<240 {
            for x in 0..<320 where !cells.contains(where: { $0.contains(IntRect(x: x, y: y, width: 1, height: 1)) }) {
                if test.rgb(img.surface, x, y) != background {
                    Issue.record("pixel \(x),\(y) outside every cell is \(test.rgb(img.surface, x, y))")
                    return
                }
            }
        }
        for (i, cell) in cells.enumerated() {
            let seen = test.colors(img.surface, in: cell)
            #expect(seen.contains([0xFF, 0x95, 0x00]), "gauge \(i) shows no tint")
            #expect(seen.contains { $0.allSatisfy { $0 > 0xE0 } }, "gauge \(i) shows no white text")
        }
    }

    /// Issue 38 item 4: gauges use their cell. On a 3x3 panel at 800x480
    /// (cells 256x149) every style's drawing, title included, spans at least
    /// 85 % of its cell's height (a round style, whose width its height sets)
    /// or of its width (a linear one).
    @Test func everyStyleUsesItsCell() throws {
        let styles = [
            "ring", "dial", "accessoryCircular", "stepped", "linearCapacity", "accessoryCircularCapacity",
            "accessoryLinearCapacity", "accessoryLinear", "ring",
        ]
        let gauges = styles.enumerated().map { i, s in
            ##"{"name": "g\##(i)", "style": "\##(s)", "label": "Gauge \##(i)", "units": "%"}"##
        }
        let json =
            ##"{"mode": "800x480", "background": "#101418", "grid": {"columns": 3, "gap": 8, "margin": 8}, "gauges": [\##(gauges.joined(separator: ", "))]}"##
        let l = try LayoutReader.parse(Array(json.utf8))
        let cells = l.placement(screen: (800, 480)).frames
        let img = Image(width: 800, height: 480)
        LayoutScene(layout: l, width: 800, height: 480).drawAll(
            img.surface, values: Dictionary(uniqueKeysWithValues: (0..<9).map { ("g\($0)", 60.0) }))
        let background: [UInt8] = [0x10, 0x14, 0x18]
        let test = LayoutSceneTests()
        for (i, cell) in cells.enumerated() {
            var (x0, y0, x1, y1) = (Int.max, Int.max, Int.min, Int.min)
            for y in cell.minY..<cell.maxY {
                for x in cell.minX..<cell.maxX where test.rgb(img.surface, x, y) != background {
                    (x0, y0, x1, y1) = (min(x0, x), min(y0, y), max(x1, x + 1), max(y1, y + 1))
                }
            }
            let (w, h) = (Double(x1 - x0) / Double(cell.width), Double(y1 - y0) / Double(cell.height))
            #expect(w >= 0.85 || h >= 0.85, "\(styles[i]) in \(cell): \(Int(w * 100)) % wide, \(Int(h * 100)) % high")
        }
    }
}

/// Text on one page: one title size whatever the cell (a spanning cell's title
/// is its neighbours' size), and one value size for gauges in frames of one
/// size whatever their styles (a dial's value has less room than a ring's).
@Suite struct PanelTextTests {
    @Test func oneTitleSizeAndOneValueSizePerFrameSize() throws {
        let l = try LayoutReader.parse(
            Array(
                """
                {"mode": "800x480", "grid": {"columns": 3, "rows": 2, "gap": 8, "margin": 8}, "gauges": [
                  {"name": "a", "style": "ring", "label": "CPU", "units": "%"},
                  {"name": "b", "style": "dial", "label": "Temp", "units": "°C", "range": [20, 90]},
                  {"name": "c", "style": "accessoryCircularCapacity", "label": "Memory", "units": "%"},
                  {"name": "d", "style": "linearCapacity", "label": "Disk", "units": "%",
                   "cell": {"row": 1, "column": 0, "columnSpan": 2}},
                  {"name": "e", "style": "stepped", "label": "Load", "range": [0, 8], "units": ""}
                ]}
                """.utf8))
        let screen = IntRect(x: 0, y: 0, width: 800, height: 480)
        let frames = l.placement(screen: (800, 480)).frames.map { $0.intersection(screen) }
        func titleSize(_ layout: Layout, _ i: Int) -> Double? {
            layout.gauges[i].gauge.environment.typeScale?.sizes(
                for: Size(width: Double(frames[i].width), height: Double(frames[i].height))
            ).title
        }
        func valueSize(_ layout: Layout, _ i: Int) -> Double? {
            layout.gauges[i].gauge.currentValueSize(in: Rect(frames[i]))
        }
        // As read, the spanning bar's title is larger and the three styles' values differ: what the panel corrects.
        #expect(titleSize(l, 3)! > titleSize(l, 0)!)
        #expect(Set([0, 1, 2].map { valueSize(l, $0)! }).count > 1)
        let panel = LayoutScene.uniformText(l, frames: frames)
        #expect(Set((0..<5).map { titleSize(panel, $0)! }).count == 1, "one title size")
        let cellValues = [0, 1, 2, 4].map { valueSize(panel, $0)! }
        #expect(Set(cellValues).count == 1, "one value size in the 1x1 cells: \(cellValues)")
        #expect(cellValues[0] == [0, 1, 2, 4].map { valueSize(l, $0)! }.min())
    }

    /// Issue 38 item 4: on a panel the value is each gauge's largest text:
    /// at least the titles' size (which step below the smallest shared value),
    /// than a dial's or an arc's own label, and than a clock (capped at the
    /// largest value). Every style, 3x3 at 800x480, 4x4 at 320x240 and the
    /// examples' layouts.
    @Test func theValueIsEachGaugesLargestText() throws {
        let styles = [
            "ring", "dial", "accessoryCircular", "stepped", "linearCapacity", "accessoryCircularCapacity",
            "accessoryLinearCapacity", "accessoryLinear",
        ]
        func panel(_ mode: String, columns: Int, count: Int) -> String {
            let gauges = (0..<count).map { i in
                i == 0
                    ? ##"{"name": "clock", "kind": "clock"}"##
                    : ##"{"name": "g\##(i)", "style": "\##(styles[i % styles.count])", "label": "Label \##(i)", "units": "%"}"##
            }
            return
                ##"{"mode": "\##(mode)", "grid": {"columns": \##(columns), "gap": 8, "margin": 8}, "gauges": [\##(gauges.joined(separator: ", "))]}"##
        }
        var texts = [panel("800x480", columns: 3, count: 9), panel("320x240", columns: 4, count: 16)]
        for example in ["pi-7inch-800x480", "spi-320x240", "hdmi-1920x1080"] {
            texts.append(try String(contentsOfFile: "examples/\(example)/layout.json", encoding: .utf8))
        }
        for json in texts {
            let l = try LayoutReader.parse(Array(json.utf8))
            let (w, h) = l.logicalSize ?? (800, 480)
            let frames = l.placement(screen: (w, h)).frames
            let u = LayoutScene.uniformText(l, frames: frames)
            var largest = 0.0
            for (i, g) in u.gauges.enumerated() where g.widget == nil && g.page == 0 {
                let f = Rect(frames[i])
                guard let value = g.gauge.currentValueSize(in: f) else { continue }
                largest = max(largest, value)
                let sizes = g.gauge.environment.typeScale?.sizes(for: Size(width: f.width, height: f.height))
                let title = try #require(sizes).title
                // A dial's value may have less room than the title; in a cell
                // too small for more than the smallest title, a value is what
                // its place holds; else never smaller than the title.
                let smallest = g.gauge.environment.typeScale?.minimum ?? 9
                if !(g.gauge.style is DialGaugeStyle), title > smallest {
                    #expect(value >= title, "\(w)x\(h) \(g.name): value \(value), title \(title)")
                }
                if let dial = g.gauge.dialLayout(in: f), dial.titleBox != nil {
                    #expect(dial.titleSize <= dial.valueSize, "\(g.name): the dial's label outgrows its value")
                }
            }
            if let clock = u.gauges.firstIndex(where: { $0.name == "clock" }), largest > 0 {
                let r = LayoutScene(layout: l, width: w, height: h)
                #expect(r.widgetPixelSize(clock) <= largest, "\(w)x\(h): the clock outgrows the values")
            }
        }
    }
}

/// A layout placed with `rect` for its own `mode`, shown on a display of another size.
@Suite struct RectFitTests {
    @Test func rectsAreScaledToFitAndCentred() {
        let r = IntRect(x: 24, y: 32, width: 272, height: 272)
        // As given on the layout's own size, or without a mode.
        #expect(Layout.fit(r, drawnFor: (800, 480), on: (800, 480)) == r)
        #expect(Layout.fit(r, drawnFor: nil, on: (1920, 1080)) == r)
        // 800x480 on 1920x1080: 2.25 times, 60 px either side.
        #expect(
            Layout.fit(r, drawnFor: (800, 480), on: (1920, 1080)) == IntRect(x: 114, y: 72, width: 612, height: 612))
        #expect(
            Layout.fit(IntRect(x: 0, y: 0, width: 800, height: 480), drawnFor: (800, 480), on: (1920, 1080))
                == IntRect(x: 60, y: 0, width: 1800, height: 1080))
        // Smaller: 800x480 on 320x240 is 0.4 times, 24 px above and below.
        #expect(
            Layout.fit(IntRect(x: 0, y: 0, width: 800, height: 480), drawnFor: (800, 480), on: (320, 240))
                == IntRect(x: 0, y: 24, width: 320, height: 192))
        // Neighbours stay neighbours: touching rects touch, apart ones stay apart.
        let a = Layout.fit(IntRect(x: 0, y: 0, width: 333, height: 100), drawnFor: (800, 480), on: (1366, 768))
        let b = Layout.fit(IntRect(x: 333, y: 0, width: 100, height: 100), drawnFor: (800, 480), on: (1366, 768))
        #expect(a.x + a.width == b.x && a.intersection(b).isEmpty)
    }

    /// The package's default layout (rects for 800x480) on an HDMI monitor fills its height, centred, unclipped.
    @Test func thePackagesLayoutFillsAnHDMIMonitor() throws {
        let layout = try LayoutReader.read(file: FolderCycleTests.root + "/packaging/layout.json")
        let frames = layout.placement(screen: (1920, 1080)).frames
        let screen = IntRect(x: 0, y: 0, width: 1920, height: 1080)
        #expect(frames.count == layout.gauges.count)
        for f in frames { #expect(f.intersection(screen) == f, "\(f) leaves the screen") }
        let bounds = frames.dropFirst().reduce(frames[0]) { $0.union($1) }
        #expect(bounds.width > 1600 && bounds.height > 950, "\(bounds)")
        // Centred: inside the 1800x1080 area 60 px from either side, as the layout lies in its 800x480.
        #expect(bounds.x >= 60 && bounds.x + bounds.width <= 1860, "centred: \(bounds)")
    }
}
