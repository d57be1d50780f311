#ifndef WAVEGEN_CGIF_SHIM_H
#define WAVEGEN_CGIF_SHIM_H
#include <gif_lib.h>
#endif
