// Styles written the way a user of the library writes them: this file imports
// PanelGauge without @testable, so it compiles against the public API only.
import PanelGauge

/// The loader-styles article's Primary: 80 px, purple, the percentage inside.
struct PrimaryLoaderStyle: LoaderStyle {
    func makeBody(configuration: Configuration) -> some Drawable {
        configuration.indicator.tint(.purple).frame(width: 80, height: 80)
            .overlay(Text("\(Int(configuration.progress * 100))%", size: 14, color: .gray))
    }
}

/// The loader-styles article's Secondary: 40 px, red, no text.
struct SecondaryLoaderStyle: LoaderStyle {
    func makeBody(configuration: Configuration) -> some Drawable {
        configuration.indicator.tint(.red).frame(width: 40, height: 40)
    }
}

extension LoaderStyle where Self == PrimaryLoaderStyle {
    static var primary: Self { Self() }
}
extension LoaderStyle where Self == SecondaryLoaderStyle {
    static var secondary: Self { Self() }
}

/// The GaugeStyleConfiguration article's ring: an 80 px ring, 8 px blue stroke
/// trimmed to the value from the top, the current value label in the middle.
struct ArticleRingStyle: GaugeStyle {
    func makeBody(configuration: Configuration) -> some Drawable {
        Draw(size: { _, _ in Size(width: 80, height: 80) }) { rect, canvas, context in
            let ring = CircularGaugeLayout.inscribed(in: rect, lineWidthFraction: 0.1, startAngle: 270)
            canvas.strokeArc(
                center: ring.center, radius: ring.radius, startAngle: ring.startAngle,
                sweep: ring.sweep * configuration.value,
                width: ring.lineWidth, paint: .solid(.blue))
            if let label = configuration.currentValueLabel {
                ring.drawCentre(
                    label, configuration, preferred: 17, fitting: 2 * ring.innerRadius, on: canvas, context: context)
            }
        }
        .frame(width: 80, height: 80)
    }
}
