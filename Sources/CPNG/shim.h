#ifndef WAVEGEN_CPNG_SHIM_H
#define WAVEGEN_CPNG_SHIM_H
#include <png.h>

// PNG_FORMAT_RGBA is a macro expression Swift cannot import.
static const unsigned int wavegen_PNG_FORMAT_RGBA = PNG_FORMAT_RGBA;
#endif
