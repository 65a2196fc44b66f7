#include <ft2build.h>
#include FT_FREETYPE_H
#include FT_OUTLINE_H
#include FT_SIZES_H

/* Function-like FreeType macros that Swift cannot import, as inline functions. */

/* Load flags for light hinting (vertical-only, keeps glyph shapes), rendered
   to an 8-bit anti-aliased bitmap. */
static inline FT_Int32 cft_load_light_render(void) {
    return FT_LOAD_TARGET_LIGHT | FT_LOAD_RENDER;
}

/* Load flags for light hinting without rendering (metrics only). */
static inline FT_Int32 cft_load_light(void) {
    return FT_LOAD_TARGET_LIGHT;
}

/* Whether the face has a 'kern' table FT_Get_Kerning can read. */
static inline int cft_has_kerning(FT_Face face) {
    return FT_HAS_KERNING(face) ? 1 : 0;
}
