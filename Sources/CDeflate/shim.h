#ifndef WAVEGEN_CDEFLATE_SHIM_H
#define WAVEGEN_CDEFLATE_SHIM_H
#include <libdeflate.h>
#endif
