#ifndef WAVEGEN_CZOPFLI_SHIM_H
#define WAVEGEN_CZOPFLI_SHIM_H
#include <zopfli/zopfli.h>
#endif
