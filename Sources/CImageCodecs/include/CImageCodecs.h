// Visage's thin shim over image libraries loaded at run time with dlopen (libwebp, libheif, libavif,
// libtiff). Their headers are not needed to build: each file declares only the few functions and
// struct fields Visage calls, written against the version named in its header comment, and checks
// the loaded library's version before use. Callbacks and library error handlers stay in C.
// Not a stable API: Swift's codecs in VisageImage are its only callers.
#ifndef VISAGE_CIMAGECODECS_H
#define VISAGE_CIMAGECODECS_H

#include <stddef.h>
#include <stdint.h>

/// Whether a library could be loaded, its version, and otherwise why not.
typedef struct vcodec_library {
    int loaded;
    char version[32];
    char error[256];
} vcodec_library;

/// The outcome of a call: 0 on success; otherwise the library's own code, whether it reported that
/// the data ends early, and its message.
typedef struct vcodec_status {
    int code;
    int truncated;
    int limit_exceeded;
    char message[256];
} vcodec_status;

// MARK: libwebp (libwebp.so.7)

const vcodec_library *vwebp_library(void);
/// VP8StatusCode: 0 OK, 3 bitstream error, 4 unsupported feature, 7 not enough data.
int vwebp_features(const uint8_t *data, size_t size, int *width, int *height, int *has_alpha, int *has_animation, int *format);
/// Decodes a still WebP into `out` (RGB or RGBA, `stride` bytes a row); 0 on success.
int vwebp_decode(const uint8_t *data, size_t size, int rgba, uint8_t *out, size_t out_size, int stride);

// MARK: libheif (libheif.so.1)

const vcodec_library *vheif_library(void);

typedef struct vheif_info {
    /// The primary image's stored size (ispe), before rotation or mirroring.
    int width, height;
    /// The size after libheif applies the transformations (crop, rotation).
    int display_width, display_height;
    int has_alpha;
    int bit_depth;
    int image_count;
} vheif_info;

/// Reads the container only (no pixels). `side_limit` becomes libheif's maximum image size.
int vheif_info_read(const uint8_t *data, size_t size, int side_limit, vheif_info *info, vcodec_status *status);
/// Decodes the primary image, ignoring its transformations (Visage applies irot/imir as orientation),
/// to 8-bit RGB or RGBA rows of exactly `width` × `height`.
int vheif_decode(const uint8_t *data, size_t size, int side_limit, int rgba, uint8_t *out, size_t stride,
                 int width, int height, vcodec_status *status);
/// The same decode with libheif applying the transformations itself (for tests that check Visage's reading).
int vheif_decode_transformed(const uint8_t *data, size_t size, int side_limit, int rgba, uint8_t *out, size_t stride,
                             int width, int height, vcodec_status *status);

// MARK: libavif (libavif.so.15, 0.11)

const vcodec_library *vavif_library(void);

typedef struct vavif_info {
    int width, height;
    int depth;
    int has_alpha;
    int image_count;
    /// irot angle (counter-clockwise quarter turns) or -1; imir mode (0 top-bottom, 1 left-right) or -1.
    int rotation, mirror;
} vavif_info;

int vavif_info_read(const uint8_t *data, size_t size, uint32_t pixel_limit, uint32_t side_limit, vavif_info *info, vcodec_status *status);
/// Decodes the first image to 8-bit RGB or RGBA of exactly `width` × `height`, untransformed.
int vavif_decode(const uint8_t *data, size_t size, uint32_t pixel_limit, uint32_t side_limit, int rgba, uint8_t *out,
                 size_t stride, int width, int height, vcodec_status *status);

// MARK: libtiff (libtiff.so.6, 4.5)

const vcodec_library *vtiff_library(void);

typedef struct vtiff_info {
    uint32_t width, height;
    int orientation;
    int bits_per_sample;
    int samples_per_pixel;
    int extra_samples;
    int photometric;
    int compression;
    int directory_count;
} vtiff_info;

int vtiff_info_read(const uint8_t *data, size_t size, int64_t memory_limit, vtiff_info *info, vcodec_status *status);
/// Decodes the first directory to RGBA rows in stored order (no orientation applied), `width` × 4 bytes a row.
int vtiff_decode(const uint8_t *data, size_t size, int64_t memory_limit, uint8_t *out, uint32_t width, uint32_t height,
                 vcodec_status *status);

#endif
