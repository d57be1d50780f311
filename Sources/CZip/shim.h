#ifndef WAVEGEN_CZIP_SHIM_H
#define WAVEGEN_CZIP_SHIM_H
#include <zip.h>
#endif
