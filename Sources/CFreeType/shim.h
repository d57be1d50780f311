#ifndef WAVEGEN_CFREETYPE_SHIM_H
#define WAVEGEN_CFREETYPE_SHIM_H
#include <ft2build.h>
#include FT_FREETYPE_H

// Load flags are macro expressions Swift cannot import.
static const int wavegen_FT_LOAD_RENDER_NORMAL = FT_LOAD_RENDER | FT_LOAD_TARGET_NORMAL;
#endif
