#ifndef WAVEGEN_CFREETYPE_SHIM_H
#define WAVEGEN_CFREETYPE_SHIM_H
#include <ft2build.h>
#include FT_FREETYPE_H

// Load flags are macro expressions Swift cannot import.
// Glyphs load hinted for normal anti-aliased rendering, still as outlines; FT_Render_Glyph with
// FT_RENDER_MODE_NORMAL then does what FT_LOAD_RENDER would.
static const int wavegen_FT_LOAD_TARGET_NORMAL = FT_LOAD_TARGET_NORMAL;
#include FT_OUTLINE_H
#endif
