#if canImport(Glibc)
    import Glibc
#endif
@testable import PanelGauge
import Testing

@testable import PanelScene

/// Which pixels lie in the sector a value arc sweeps (``ArcSector``), the
/// split the scene's copy loops make between the whole arc's picture and the
/// static one.
@Suite struct ArcSectorTests {
    /// forEachRun, the pieces between a row's cuts, and side(of:) agree with
    /// the direction of each pixel centre (atan2), except within a pixel of
    /// the sector's two rays.
    @Test func sectorRunsFollowThePixelsDirections() {
        let layouts = [
            CircularGaugeLayout(center: Point(x: 30.5, y: 25), radius: 20, lineWidth: 6, startAngle: 90, sweep: 360),
            CircularGaugeLayout(center: Point(x: 31, y: 24.3), radius: 20, lineWidth: 6, startAngle: 135, sweep: 270),
            CircularGaugeLayout(center: Point(x: 30, y: 25), radius: 20, lineWidth: 6, startAngle: 270, sweep: -300),
        ]
        for l in layouts {
            for v in [0, 0.1, 0.3, 0.5, 0.62, 0.9, 1] {
                let sector = ArcSector(l, upTo: v)
                let reach = l.sweep.degrees * v
                let a0 = l.startAngle.radians, a1 = (l.startAngle + .degrees(reach)).radians
                func expected(_ x: Int, _ y: Int) -> Bool? {
                    let dx = Double(x) + 0.5 - l.center.x, dy = Double(y) + 0.5 - l.center.y
                    // Within a pixel of either ray: either side will do.
                    for a in [a0, a1] where dx * cos(a) + dy * sin(a) > -1 && abs(dx * sin(a) - dy * cos(a)) < 1 {
                        return nil
                    }
                    var d = atan2(dy, dx) * 180 / Double.pi - l.startAngle.degrees
                    if reach < 0 { d = -d }
                    d = d.truncatingRemainder(dividingBy: 360)
                    if d < 0 { d += 360 }
                    return abs(reach) >= 360 || (reach != 0 && d <= abs(reach))
                }
                var wrong: [(Int, Int)] = [], wrongPieces: [(Int, Int)] = []
                for y in 0..<50 {
                    var next = 3
                    sector.forEachRun(row: y, columns: 3..<58) { columns, inside in
                        #expect(columns.lowerBound == next && !columns.isEmpty)
                        next = columns.upperBound
                        for x in columns where expected(x, y).map({ $0 != inside }) ?? false { wrong.append((x, y)) }
                    }
                    #expect(next == 58)
                    // The row's cuts on their own (paneld splits runs by them):
                    // each piece between two lies on the side its middle says.
                    let cuts = sector.cuts(row: y)
                    #expect(cuts.0 <= cuts.1 && cuts.1 <= cuts.2)
                    var from = 3
                    for end in [cuts.0, cuts.1, cuts.2, 58] {
                        let to = min(max(end, from), 58)
                        if to > from {
                            let inside = sector.contains(columns: from, to, row: y)
                            for x in from..<to where expected(x, y).map({ $0 != inside }) ?? false {
                                wrongPieces.append((x, y))
                            }
                        }
                        from = to
                    }
                }
                #expect(wrong.isEmpty, "\(l.startAngle.degrees) + \(reach): \(wrong.prefix(5))")
                #expect(wrongPieces.isEmpty, "cuts, \(l.startAngle.degrees) + \(reach): \(wrongPieces.prefix(5))")
                for r in [
                    IntRect(x: 0, y: 0, width: 12, height: 9), IntRect(x: 44, y: 30, width: 10, height: 15),
                    IntRect(x: 20, y: 40, width: 30, height: 8), IntRect(x: 25, y: 20, width: 10, height: 10),
                ] {
                    guard let side = sector.side(of: r) else { continue }
                    let mismatched = r.pixelsXY.filter { expected($0.0, $0.1).map { $0 != side } ?? false }
                    #expect(mismatched.isEmpty, "\(r) is not all \(side): \(mismatched.prefix(3))")
                }
                #expect(sector.side(of: IntRect(x: 25, y: 20, width: 10, height: 10)) == nil || v == 0 || v == 1)
            }
        }
    }
}

extension IntRect {
    fileprivate var pixelsXY: [(Int, Int)] { (minY..<maxY).flatMap { y in (minX..<maxX).map { ($0, y) } } }
}
