#include <stdint.h>
#include <xf86drm.h>
#include <xf86drmMode.h>
#include <drm_fourcc.h>
/* DRM_IOCTL_* and DRM_FORMAT_* are function-like or cast macros that do not
 * import into Swift: re-export the ones paneld uses as constants. */
static const uint32_t CDRM_FORMAT_XRGB8888 = DRM_FORMAT_XRGB8888;
static const uint32_t CDRM_FORMAT_RGB565 = DRM_FORMAT_RGB565;

/* The legacy framebuffer and console ioctls (linux/fb.h, linux/kd.h), for the
 * fbdev output. FBIO_WAITFORVSYNC is an _IOW() macro: re-exported as a constant. */
#include <linux/fb.h>
#include <linux/kd.h>
/* Virtual terminal switching (VT_SETMODE with VT_PROCESS), for the DRM output. */
#include <linux/vt.h>
static const unsigned long CFB_FBIO_WAITFORVSYNC = FBIO_WAITFORVSYNC;
