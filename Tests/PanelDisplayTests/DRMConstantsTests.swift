import CDRM
import Testing

@testable import PanelDisplay
import PanelDisplayFakes

/// The Swift-side copies of kernel constants must equal libdrm's headers.
@Suite struct DRMConstantsTests {
    @Test func fourccCodesMatchDrmFourccH() {
        #expect(DRMFourCC.xrgb8888 == CDRM_FORMAT_XRGB8888)
        #expect(DRMFourCC.rgb565 == CDRM_FORMAT_RGB565)
    }

    @Test func capabilityAndFlagValuesMatchDrmH() {
        #expect(DRMCapability.dumbBuffer.rawValue == UInt64(DRM_CAP_DUMB_BUFFER))
        #expect(DRMCapability.addFB2Modifiers.rawValue == UInt64(DRM_CAP_ADDFB2_MODIFIERS))
        #expect(DRMCapability.syncobjTimeline.rawValue == UInt64(DRM_CAP_SYNCOBJ_TIMELINE))
        #expect(DRMClientCapability.universalPlanes.rawValue == UInt64(DRM_CLIENT_CAP_UNIVERSAL_PLANES))
        #expect(ModeInfo.typePreferred == UInt32(DRM_MODE_TYPE_PREFERRED))
        #expect(DRMEventParser.flipComplete == UInt32(DRM_EVENT_FLIP_COMPLETE))
        #expect(ConnectionStatus.connected.rawValue == DRM_MODE_CONNECTED.rawValue)
        #expect(PlaneInfo.Kind.primary.rawValue == UInt64(DRM_PLANE_TYPE_PRIMARY))
        #expect(ConnectorType.name(of: UInt32(DRM_MODE_CONNECTOR_HDMIA)) == "HDMI-A")
        #expect(ConnectorType.name(of: UInt32(DRM_MODE_CONNECTOR_DSI)) == "DSI")
        #expect(ConnectorType.name(of: UInt32(DRM_MODE_CONNECTOR_SPI)) == "SPI")
    }
}
