#ifndef WAVEGEN_CWEBP_SHIM_H
#define WAVEGEN_CWEBP_SHIM_H
#include <webp/encode.h>
#include <webp/decode.h>
#include <webp/mux.h>
#include <webp/demux.h>

// The library's init functions are macros that pass the ABI version; Swift cannot call macros.
static inline int wavegen_WebPConfigInit(WebPConfig *config) { return WebPConfigInit(config); }
static inline int wavegen_WebPPictureInit(WebPPicture *picture) { return WebPPictureInit(picture); }
static inline int wavegen_WebPAnimEncoderOptionsInit(WebPAnimEncoderOptions *options) {
    return WebPAnimEncoderOptionsInit(options);
}
static inline WebPAnimEncoder *wavegen_WebPAnimEncoderNew(int width, int height, const WebPAnimEncoderOptions *options) {
    return WebPAnimEncoderNew(width, height, options);
}
static inline int wavegen_WebPAnimDecoderOptionsInit(WebPAnimDecoderOptions *options) {
    return WebPAnimDecoderOptionsInit(options);
}
static inline WebPAnimDecoder *wavegen_WebPAnimDecoderNew(const WebPData *data, const WebPAnimDecoderOptions *options) {
    return WebPAnimDecoderNew(data, options);
}
#endif
