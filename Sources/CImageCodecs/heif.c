// libheif's C API, declared from libheif 1.15's heif.h: opaque handles, `struct heif_error` returned
// by value, and the two leading fields of `heif_decoding_options` (stable since its version 1).
#include "loader.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

struct heif_context;
struct heif_image_handle;
struct heif_image;

typedef struct {
    int code;     // enum heif_error_code
    int subcode;  // enum heif_suberror_code
    const char *message;
} vheif_error;

typedef struct {
    uint8_t version;
    uint8_t ignore_transformations;
    void *start_progress, *on_progress, *end_progress, *progress_user_data;
    // version 2
    uint8_t convert_hdr_to_8bit;
    // later fields are left as heif_decoding_options_alloc set them
} vheif_decoding_options;

enum {
    VHEIF_ERROR_INVALID_INPUT = 2,
    VHEIF_ERROR_MEMORY = 6,
    VHEIF_SUBERROR_END_OF_DATA = 100,
    VHEIF_SUBERROR_SECURITY_LIMIT = 1000,
    VHEIF_COLORSPACE_RGB = 1,
    VHEIF_CHROMA_INTERLEAVED_RGB = 10,
    VHEIF_CHROMA_INTERLEAVED_RGBA = 11,
    VHEIF_CHANNEL_INTERLEAVED = 10,
};

static struct {
    vcodec_library library;
    const char *(*get_version)(void);
    uint32_t (*get_version_number)(void);
    vheif_error (*init)(void *);
    struct heif_context *(*context_alloc)(void);
    void (*context_free)(struct heif_context *);
    vheif_error (*read_from_memory_without_copy)(struct heif_context *, const void *, size_t, const void *);
    void (*set_maximum_image_size_limit)(struct heif_context *, int);
    int (*number_of_top_level_images)(struct heif_context *);
    vheif_error (*primary_image_handle)(struct heif_context *, struct heif_image_handle **);
    void (*handle_release)(const struct heif_image_handle *);
    int (*ispe_width)(const struct heif_image_handle *);
    int (*ispe_height)(const struct heif_image_handle *);
    int (*handle_width)(const struct heif_image_handle *);
    int (*handle_height)(const struct heif_image_handle *);
    int (*has_alpha)(const struct heif_image_handle *);
    int (*luma_bits)(const struct heif_image_handle *);
    vheif_decoding_options *(*options_alloc)(void);
    void (*options_free)(vheif_decoding_options *);
    vheif_error (*decode_image)(const struct heif_image_handle *, struct heif_image **, int, int, const vheif_decoding_options *);
    int (*image_width)(const struct heif_image *, int);
    int (*image_height)(const struct heif_image *, int);
    int (*bits_per_pixel_range)(const struct heif_image *, int);
    const uint8_t *(*plane_readonly)(const struct heif_image *, int, int *);
    void (*image_release)(const struct heif_image *);
} heif;

static pthread_once_t heif_once = PTHREAD_ONCE_INIT;

static void heif_load(void) {
    static const char *const sonames[] = {"libheif.so.1", "libheif.1.dylib", NULL};
    void *handle = vcodec_open(&heif.library, sonames);
    if (!handle) return;
    vcodec_library *l = &heif.library;
    VCODEC_LOAD(*l, handle, heif.get_version, "heif_get_version");
    VCODEC_LOAD(*l, handle, heif.get_version_number, "heif_get_version_number");
    VCODEC_LOAD(*l, handle, heif.context_alloc, "heif_context_alloc");
    VCODEC_LOAD(*l, handle, heif.context_free, "heif_context_free");
    VCODEC_LOAD(*l, handle, heif.read_from_memory_without_copy, "heif_context_read_from_memory_without_copy");
    VCODEC_LOAD(*l, handle, heif.set_maximum_image_size_limit, "heif_context_set_maximum_image_size_limit");
    VCODEC_LOAD(*l, handle, heif.number_of_top_level_images, "heif_context_get_number_of_top_level_images");
    VCODEC_LOAD(*l, handle, heif.primary_image_handle, "heif_context_get_primary_image_handle");
    VCODEC_LOAD(*l, handle, heif.handle_release, "heif_image_handle_release");
    VCODEC_LOAD(*l, handle, heif.ispe_width, "heif_image_handle_get_ispe_width");
    VCODEC_LOAD(*l, handle, heif.ispe_height, "heif_image_handle_get_ispe_height");
    VCODEC_LOAD(*l, handle, heif.handle_width, "heif_image_handle_get_width");
    VCODEC_LOAD(*l, handle, heif.handle_height, "heif_image_handle_get_height");
    VCODEC_LOAD(*l, handle, heif.has_alpha, "heif_image_handle_has_alpha_channel");
    VCODEC_LOAD(*l, handle, heif.luma_bits, "heif_image_handle_get_luma_bits_per_pixel");
    VCODEC_LOAD(*l, handle, heif.options_alloc, "heif_decoding_options_alloc");
    VCODEC_LOAD(*l, handle, heif.options_free, "heif_decoding_options_free");
    VCODEC_LOAD(*l, handle, heif.decode_image, "heif_decode_image");
    VCODEC_LOAD(*l, handle, heif.image_width, "heif_image_get_width");
    VCODEC_LOAD(*l, handle, heif.image_height, "heif_image_get_height");
    VCODEC_LOAD(*l, handle, heif.bits_per_pixel_range, "heif_image_get_bits_per_pixel_range");
    VCODEC_LOAD(*l, handle, heif.plane_readonly, "heif_image_get_plane_readonly");
    VCODEC_LOAD(*l, handle, heif.image_release, "heif_image_release");
    if (l->error[0]) return;
    vcodec_copy(l->version, sizeof l->version, heif.get_version());
    // ispe accessors arrived in 1.4; everything else here is older.
    if (heif.get_version_number() < 0x01040000) {
        snprintf(l->error, sizeof l->error, "libheif %s is older than 1.4", l->version);
        return;
    }
    // Optional: loads the decoder plugins of libheif ≥ 1.14; older versions initialise themselves.
    heif.init = (vheif_error(*)(void *))dlsym(handle, "heif_init");
    if (heif.init) heif.init(NULL);
    l->loaded = 1;
}

const vcodec_library *vheif_library(void) {
    pthread_once(&heif_once, heif_load);
    return &heif.library;
}

static int heif_failed(vcodec_status *status, vheif_error error) {
    if (error.code == 0) return 0;
    vcodec_fail(status, error.code, error.message);
    status->truncated = error.subcode == VHEIF_SUBERROR_END_OF_DATA;
    status->limit_exceeded = error.subcode == VHEIF_SUBERROR_SECURITY_LIMIT || error.code == VHEIF_ERROR_MEMORY;
    return status->code;
}

/// A context over `data` with the primary image's handle, or the failure in `status`.
static int heif_open(const uint8_t *data, size_t size, int side_limit, struct heif_context **context,
                     struct heif_image_handle **handle, vcodec_status *status) {
    memset(status, 0, sizeof *status);
    *handle = NULL;
    if (!vheif_library()->loaded) return vcodec_fail(status, -1, heif.library.error), -1;
    *context = heif.context_alloc();
    if (!*context) return vcodec_fail(status, VHEIF_ERROR_MEMORY, "cannot allocate a libheif context"), -1;
    heif.set_maximum_image_size_limit(*context, side_limit);
    if (heif_failed(status, heif.read_from_memory_without_copy(*context, data, size, NULL))) return -1;
    if (heif_failed(status, heif.primary_image_handle(*context, handle))) return -1;
    return 0;
}

static void heif_close(struct heif_context *context, struct heif_image_handle *handle) {
    if (handle) heif.handle_release(handle);
    if (context) heif.context_free(context);
}

int vheif_info_read(const uint8_t *data, size_t size, int side_limit, vheif_info *info, vcodec_status *status) {
    struct heif_context *context = NULL;
    struct heif_image_handle *handle = NULL;
    int result = heif_open(data, size, side_limit, &context, &handle, status);
    if (result == 0) {
        info->width = heif.ispe_width(handle);
        info->height = heif.ispe_height(handle);
        info->display_width = heif.handle_width(handle);
        info->display_height = heif.handle_height(handle);
        info->has_alpha = heif.has_alpha(handle);
        info->bit_depth = heif.luma_bits(handle);
        info->image_count = heif.number_of_top_level_images(context);
    }
    heif_close(context, handle);
    return result;
}

static int heif_decode_into(const uint8_t *data, size_t size, int side_limit, int ignore_transformations, int rgba,
                            uint8_t *out, size_t stride, int width, int height, vcodec_status *status) {
    struct heif_context *context = NULL;
    struct heif_image_handle *handle = NULL;
    struct heif_image *image = NULL;
    int result = heif_open(data, size, side_limit, &context, &handle, status);
    if (result == 0) {
        vheif_decoding_options *options = heif.options_alloc();
        if (options) {
            options->ignore_transformations = (uint8_t)ignore_transformations;
            // 10-bit HEIC (HDR iPhone photos) decodes to the 8-bit RGB Visage works in.
            if (options->version >= 2) options->convert_hdr_to_8bit = 1;
        }
        int chroma = rgba ? VHEIF_CHROMA_INTERLEAVED_RGBA : VHEIF_CHROMA_INTERLEAVED_RGB;
        vheif_error error = heif.decode_image(handle, &image, VHEIF_COLORSPACE_RGB, chroma, options);
        if (options) heif.options_free(options);
        if (heif_failed(status, error)) {
            result = -1;
        } else {
            int plane_stride = 0;
            const uint8_t *plane = heif.plane_readonly(image, VHEIF_CHANNEL_INTERLEAVED, &plane_stride);
            int got_width = heif.image_width(image, VHEIF_CHANNEL_INTERLEAVED);
            int got_height = heif.image_height(image, VHEIF_CHANNEL_INTERLEAVED);
            int bits = heif.bits_per_pixel_range(image, VHEIF_CHANNEL_INTERLEAVED);
            size_t row = (size_t)width * (rgba ? 4 : 3);
            if (!plane || got_width != width || got_height != height || bits != 8 || plane_stride < 0 ||
                (size_t)plane_stride < row) {
                char message[160];
                snprintf(message, sizeof message, "libheif decoded %d×%d at %d bits, not the %d×%d 8-bit image its header declares",
                         got_width, got_height, bits, width, height);
                vcodec_fail(status, VHEIF_ERROR_INVALID_INPUT, message);
                result = -1;
            } else {
                for (int y = 0; y < height; y++) memcpy(out + (size_t)y * stride, plane + (size_t)y * (size_t)plane_stride, row);
            }
            heif.image_release(image);
        }
    }
    heif_close(context, handle);
    return result;
}

int vheif_decode(const uint8_t *data, size_t size, int side_limit, int rgba, uint8_t *out, size_t stride,
                 int width, int height, vcodec_status *status) {
    return heif_decode_into(data, size, side_limit, 1, rgba, out, stride, width, height, status);
}

int vheif_decode_transformed(const uint8_t *data, size_t size, int side_limit, int rgba, uint8_t *out, size_t stride,
                             int width, int height, vcodec_status *status) {
    return heif_decode_into(data, size, side_limit, 0, rgba, out, stride, width, height, status);
}
