// libwebp's simple decoding API, declared from libwebp 1.2.4's decode.h (decoder ABI 0x0209).
// Visage parses the RIFF container itself (EXIF, animation frames) and hands libwebp one still image.
#include "loader.h"

#include <pthread.h>
#include <stdio.h>

// WEBP_DECODER_ABI_VERSION of 1.2.x; libwebp accepts any caller with the same major byte.
#define VWEBP_DECODER_ABI_VERSION 0x0209

typedef struct {
    int width, height, has_alpha, has_animation, format;
    uint32_t pad[5];
} VWebPBitstreamFeatures;

static struct {
    vcodec_library library;
    int (*get_decoder_version)(void);
    int (*get_features)(const uint8_t *, size_t, VWebPBitstreamFeatures *, int);
    uint8_t *(*decode_rgb_into)(const uint8_t *, size_t, uint8_t *, size_t, int);
    uint8_t *(*decode_rgba_into)(const uint8_t *, size_t, uint8_t *, size_t, int);
} webp;

static pthread_once_t webp_once = PTHREAD_ONCE_INIT;

static void webp_load(void) {
    static const char *const sonames[] = {"libwebp.so.7", "libwebp.7.dylib", NULL};
    void *handle = vcodec_open(&webp.library, sonames);
    if (!handle) return;
    VCODEC_LOAD(webp.library, handle, webp.get_decoder_version, "WebPGetDecoderVersion");
    VCODEC_LOAD(webp.library, handle, webp.get_features, "WebPGetFeaturesInternal");
    VCODEC_LOAD(webp.library, handle, webp.decode_rgb_into, "WebPDecodeRGBInto");
    VCODEC_LOAD(webp.library, handle, webp.decode_rgba_into, "WebPDecodeRGBAInto");
    if (webp.library.error[0]) return;
    int version = webp.get_decoder_version();
    snprintf(webp.library.version, sizeof webp.library.version, "%d.%d.%d", version >> 16, (version >> 8) & 255, version & 255);
    // The simple API and WebPBitstreamFeatures are unchanged since 0.5 (soname 7 covers 0.5 … 1.x).
    if (version < 0x000500) {
        snprintf(webp.library.error, sizeof webp.library.error, "libwebp %s is older than 0.5", webp.library.version);
        return;
    }
    webp.library.loaded = 1;
}

const vcodec_library *vwebp_library(void) {
    pthread_once(&webp_once, webp_load);
    return &webp.library;
}

int vwebp_features(const uint8_t *data, size_t size, int *width, int *height, int *has_alpha, int *has_animation, int *format) {
    if (!vwebp_library()->loaded) return -1;
    VWebPBitstreamFeatures features = {0};
    int status = webp.get_features(data, size, &features, VWEBP_DECODER_ABI_VERSION);
    *width = features.width;
    *height = features.height;
    *has_alpha = features.has_alpha;
    *has_animation = features.has_animation;
    *format = features.format;
    return status;
}

int vwebp_decode(const uint8_t *data, size_t size, int rgba, uint8_t *out, size_t out_size, int stride) {
    if (!vwebp_library()->loaded) return -1;
    uint8_t *result = rgba ? webp.decode_rgba_into(data, size, out, out_size, stride)
                           : webp.decode_rgb_into(data, size, out, out_size, stride);
    return result ? 0 : -1;
}
