#include <stdint.h>
#include <xf86drm.h>
#include <xf86drmMode.h>
#include <drm_fourcc.h>
/* DRM_IOCTL_* and DRM_FORMAT_* are function-like or cast macros that do not
 * import into Swift: re-export the ones paneld uses as constants. */
static const uint32_t CDRM_FORMAT_XRGB8888 = DRM_FORMAT_XRGB8888;
static const uint32_t CDRM_FORMAT_RGB565 = DRM_FORMAT_RGB565;
