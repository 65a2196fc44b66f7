import PanelDisplay

/// From a touch device's coordinates to the layout's pixels.
///
/// The device's axis ranges (from the kernel, `EVIOCGABS`) span the panel;
/// the calibration (``TouchCalibration``: swapped axes, an axis reversed)
/// turns them into the panel's own orientation, as it scans out (x to the
/// right, y down); the layout's rotation (``PanelRotation``) then gives the
/// point in the logical picture the layout is drawn in.
package struct TouchMapping: Equatable, Sendable {
    package var x: ClosedRange<Int32>
    package var y: ClosedRange<Int32>
    package var calibration: TouchCalibration
    package var rotation: PanelRotation
    /// The logical picture's size in pixels.
    package var width: Int
    package var height: Int

    package init(
        x: ClosedRange<Int32>, y: ClosedRange<Int32>, calibration: TouchCalibration = TouchCalibration(),
        rotation: PanelRotation = .none, width: Int, height: Int
    ) {
        self.x = x
        self.y = y
        self.calibration = calibration
        self.rotation = rotation
        self.width = width
        self.height = height
    }

    /// The logical point (pixels, x to the right, y down) under a device
    /// position; positions beyond an axis's range are taken as its end.
    package func point(x rawX: Int32, y rawY: Int32) -> (x: Double, y: Double) {
        func fraction(_ v: Int32, _ r: ClosedRange<Int32>) -> Double {
            guard r.upperBound > r.lowerBound else { return 0.5 }
            return (Double(min(max(v, r.lowerBound), r.upperBound)) - Double(r.lowerBound))
                / (Double(r.upperBound) - Double(r.lowerBound))
        }
        var u = fraction(rawX, x)
        var v = fraction(rawY, y)
        if calibration.swapAxes { swap(&u, &v) }
        if calibration.invertX { u = 1 - u }
        if calibration.invertY { v = 1 - v }
        // (u, v): the panel's own orientation. Undo the rotation the picture was turned by.
        let (lu, lv): (Double, Double) =
            switch rotation {
            case .none: (u, v)
            case .clockwise90: (v, 1 - u)
            case .upsideDown: (1 - u, 1 - v)
            case .clockwise270: (1 - v, u)
            }
        return (lu * Double(width), lv * Double(height))
    }
}
