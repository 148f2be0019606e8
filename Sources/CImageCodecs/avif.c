// libavif's decoder, declared from libavif 0.11's avif.h. The soname libavif.so.15 is the 0.11 series
// only, so the struct layouts below (avifImage, avifRGBImage and avifDecoder's leading fields) are
// pinned by it; the version string is still checked.
#include "loader.h"

#include <pthread.h>
#include <stdio.h>
#include <string.h>

typedef int vavifBool;
typedef struct { uint8_t *data; size_t size; } vavifRWData;

typedef struct {
    uint32_t width, height, depth;
    int yuvFormat, yuvRange, yuvChromaSamplePosition;
    uint8_t *yuvPlanes[3];
    uint32_t yuvRowBytes[3];
    vavifBool imageOwnsYUVPlanes;
    uint8_t *alphaPlane;
    uint32_t alphaRowBytes;
    vavifBool imageOwnsAlphaPlane;
    vavifBool alphaPremultiplied;
    vavifRWData icc;
    uint16_t colorPrimaries, transferCharacteristics, matrixCoefficients;
    uint32_t transformFlags;
    struct { uint32_t hSpacing, vSpacing; } pasp;
    struct { uint32_t widthN, widthD, heightN, heightD, horizOffN, horizOffD, vertOffN, vertOffD; } clap;
    struct { uint8_t angle; } irot;
    struct { uint8_t mode; } imir;
    vavifRWData exif;
    vavifRWData xmp;
} vavifImage;

typedef struct {
    uint32_t width, height, depth;
    int format;  // avifRGBFormat: 0 RGB, 1 RGBA
    int chromaUpsampling, chromaDownsampling;
    vavifBool avoidLibYUV, ignoreAlpha, alphaPremultiplied, isFloat;
    uint8_t *pixels;
    uint32_t rowBytes;
} vavifRGBImage;

// The leading fields of avifDecoder, up to the ones Visage reads.
typedef struct {
    int codecChoice;
    int maxThreads;
    int requestedSource;
    vavifBool allowProgressive, allowIncremental, ignoreExif, ignoreXMP;
    uint32_t imageSizeLimit, imageDimensionLimit, imageCountLimit;
    uint32_t strictFlags;
    vavifImage *image;
    int imageIndex;
    int imageCount;
    int progressiveState;
    struct { uint64_t timescale; double pts; uint64_t ptsInTimescales; double duration; uint64_t durationInTimescales; } imageTiming;
    uint64_t timescale;
    double duration;
    uint64_t durationInTimescales;
    vavifBool alphaPresent;
    // ioStats, diag, io, data follow; never touched.
} vavifDecoder;

enum { VAVIF_TRANSFORM_IROT = 1 << 2, VAVIF_TRANSFORM_IMIR = 1 << 3 };
enum { VAVIF_RESULT_OK = 0, VAVIF_RESULT_TRUNCATED_DATA = 20, VAVIF_RESULT_OUT_OF_MEMORY = 26 };

static struct {
    vcodec_library library;
    const char *(*version)(void);
    const char *(*result_to_string)(int);
    vavifDecoder *(*decoder_create)(void);
    void (*decoder_destroy)(vavifDecoder *);
    int (*set_io_memory)(vavifDecoder *, const uint8_t *, size_t);
    int (*parse)(vavifDecoder *);
    int (*next_image)(vavifDecoder *);
    void (*rgb_defaults)(vavifRGBImage *, const vavifImage *);
    int (*yuv_to_rgb)(const vavifImage *, vavifRGBImage *);
} avif;

static pthread_once_t avif_once = PTHREAD_ONCE_INIT;

static void avif_load(void) {
    static const char *const sonames[] = {"libavif.so.15", "libavif.15.dylib", NULL};
    void *handle = vcodec_open(&avif.library, sonames);
    if (!handle) return;
    vcodec_library *l = &avif.library;
    VCODEC_LOAD(*l, handle, avif.version, "avifVersion");
    VCODEC_LOAD(*l, handle, avif.result_to_string, "avifResultToString");
    VCODEC_LOAD(*l, handle, avif.decoder_create, "avifDecoderCreate");
    VCODEC_LOAD(*l, handle, avif.decoder_destroy, "avifDecoderDestroy");
    VCODEC_LOAD(*l, handle, avif.set_io_memory, "avifDecoderSetIOMemory");
    VCODEC_LOAD(*l, handle, avif.parse, "avifDecoderParse");
    VCODEC_LOAD(*l, handle, avif.next_image, "avifDecoderNextImage");
    VCODEC_LOAD(*l, handle, avif.rgb_defaults, "avifRGBImageSetDefaults");
    VCODEC_LOAD(*l, handle, avif.yuv_to_rgb, "avifImageYUVToRGB");
    if (l->error[0]) return;
    vcodec_copy(l->version, sizeof l->version, avif.version());
    if (strncmp(l->version, "0.11.", 5) != 0) {
        snprintf(l->error, sizeof l->error, "libavif %s is not the 0.11 series these declarations match", l->version);
        return;
    }
    l->loaded = 1;
}

const vcodec_library *vavif_library(void) {
    pthread_once(&avif_once, avif_load);
    return &avif.library;
}

static int avif_failed(vcodec_status *status, int result, const char *what) {
    if (result == VAVIF_RESULT_OK) return 0;
    char message[256];
    snprintf(message, sizeof message, "%s: %s", what, avif.result_to_string(result));
    vcodec_fail(status, result, message);
    status->truncated = result == VAVIF_RESULT_TRUNCATED_DATA;
    status->limit_exceeded = result == VAVIF_RESULT_OUT_OF_MEMORY;
    return result;
}

/// A decoder that has parsed `data` (container only) with Visage's limits, or NULL and `status`.
static vavifDecoder *avif_parse(const uint8_t *data, size_t size, uint32_t pixel_limit, uint32_t side_limit, vcodec_status *status) {
    memset(status, 0, sizeof *status);
    if (!vavif_library()->loaded) return vcodec_fail(status, -1, avif.library.error), NULL;
    vavifDecoder *decoder = avif.decoder_create();
    if (!decoder) return vcodec_fail(status, VAVIF_RESULT_OUT_OF_MEMORY, "cannot allocate a libavif decoder"), NULL;
    decoder->maxThreads = 1;
    decoder->imageSizeLimit = pixel_limit;
    decoder->imageDimensionLimit = side_limit;
    // Only the first image is ever decoded; the count of a sequence is read from its header.
    decoder->ignoreXMP = 1;
    if (avif_failed(status, avif.set_io_memory(decoder, data, size), "cannot read the data") ||
        avif_failed(status, avif.parse(decoder), "cannot parse the container")) {
        avif.decoder_destroy(decoder);
        return NULL;
    }
    return decoder;
}

int vavif_info_read(const uint8_t *data, size_t size, uint32_t pixel_limit, uint32_t side_limit, vavif_info *info, vcodec_status *status) {
    vavifDecoder *decoder = avif_parse(data, size, pixel_limit, side_limit, status);
    if (!decoder) return -1;
    const vavifImage *image = decoder->image;
    info->width = (int)image->width;
    info->height = (int)image->height;
    info->depth = (int)image->depth;
    info->has_alpha = decoder->alphaPresent;
    info->image_count = decoder->imageCount;
    info->rotation = image->transformFlags & VAVIF_TRANSFORM_IROT ? image->irot.angle & 3 : -1;
    info->mirror = image->transformFlags & VAVIF_TRANSFORM_IMIR ? image->imir.mode & 1 : -1;
    avif.decoder_destroy(decoder);
    return 0;
}

int vavif_decode(const uint8_t *data, size_t size, uint32_t pixel_limit, uint32_t side_limit, int rgba, uint8_t *out,
                 size_t stride, int width, int height, vcodec_status *status) {
    vavifDecoder *decoder = avif_parse(data, size, pixel_limit, side_limit, status);
    if (!decoder) return -1;
    int result = -1;
    if (!avif_failed(status, avif.next_image(decoder), "cannot decode the first image")) {
        vavifImage *image = decoder->image;
        if ((int)image->width != width || (int)image->height != height || stride > UINT32_MAX) {
            char message[160];
            snprintf(message, sizeof message, "libavif decoded %u×%u, not the %d×%d its header declares",
                     image->width, image->height, width, height);
            vcodec_fail(status, 1, message);
        } else {
            vavifRGBImage rgb;
            memset(&rgb, 0, sizeof rgb);
            avif.rgb_defaults(&rgb, image);
            rgb.depth = 8;
            rgb.format = rgba ? 1 : 0;
            rgb.pixels = out;
            rgb.rowBytes = (uint32_t)stride;
            if (!avif_failed(status, avif.yuv_to_rgb(image, &rgb), "cannot convert to RGB")) result = 0;
        }
    }
    avif.decoder_destroy(decoder);
    return result;
}
