#ifndef WAVEGEN_CFONTCONFIG_SHIM_H
#define WAVEGEN_CFONTCONFIG_SHIM_H
#include <fontconfig/fontconfig.h>

// Property names are string macros; named here so Swift sees them as constants.
static const char *const wavegen_FC_FILE = FC_FILE;
static const char *const wavegen_FC_FAMILY = FC_FAMILY;
#endif
