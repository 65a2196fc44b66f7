import PanelGauge

/// A model of what the screen should show, and a `draw` callback that paints
/// only the rectangles it is given, from the model. If DRMOutput ever asks for
/// too little, the scanout buffer keeps stale pixels and `expectShown` fails.
package final class PictureModel {
    package let image: Image
    package var drawCalls: [[IntRect]] = []

    package init(width: Int, height: Int) { image = Image(width: width, height: height, format: .xrgb8888) }

    /// Changes the model: fills `rect` with a colour; returns the damage.
    package func fill(_ rect: IntRect, _ color: UInt32) -> [IntRect] {
        for y in rect.minY..<rect.maxY {
            for x in rect.minX..<rect.maxX {
                image.surface.row(y).storeBytes(of: color, toByteOffset: x * 4, as: UInt32.self)
            }
        }
        return [rect]
    }

    package func draw(_ surface: Surface, _ rects: [IntRect]) {
        drawCalls.append(rects)
        for r in rects {
            for y in r.minY..<r.maxY {
                for x in r.minX..<r.maxX {
                    let v = image.surface.row(y).load(fromByteOffset: x * 4, as: UInt32.self)
                    if surface.format == .xrgb8888 {
                        surface.row(y).storeBytes(of: v, toByteOffset: x * 4, as: UInt32.self)
                    } else {
                        let p = image.surface.pixel(x: x, y: y)
                        surface.row(y).storeBytes(
                            of: RGB565.pack(p.red, p.green, p.blue), toByteOffset: x * 2, as: UInt16.self)
                    }
                }
            }
        }
    }
}
