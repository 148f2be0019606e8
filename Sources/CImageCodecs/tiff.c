// libtiff's client API over memory, declared from libtiff 4.5's tiffio.h (soname libtiff.so.6 starts
// at 4.5.0, which added TIFFOpenOptions: a per-file allocation cap and per-file error handlers).
#include "loader.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

typedef struct tiff TIFF;
typedef struct TIFFOpenOptions TIFFOpenOptions;
typedef int64_t tmsize_t;
typedef uint64_t toff_t;
typedef int (*vtiff_handler)(TIFF *, void *, const char *, const char *, va_list);

enum {
    VTIFF_IMAGEWIDTH = 256, VTIFF_IMAGELENGTH = 257, VTIFF_BITSPERSAMPLE = 258, VTIFF_COMPRESSION = 259,
    VTIFF_PHOTOMETRIC = 262, VTIFF_ORIENTATION = 274, VTIFF_SAMPLESPERPIXEL = 277, VTIFF_EXTRASAMPLES = 338,
};

static struct {
    vcodec_library library;
    const char *(*version)(void);
    TIFFOpenOptions *(*options_alloc)(void);
    void (*options_free)(TIFFOpenOptions *);
    void (*options_max_alloc)(TIFFOpenOptions *, tmsize_t);
    void (*options_error_handler)(TIFFOpenOptions *, vtiff_handler, void *);
    void (*options_warning_handler)(TIFFOpenOptions *, vtiff_handler, void *);
    TIFF *(*client_open_ext)(const char *, const char *, void *, tmsize_t (*)(void *, void *, tmsize_t),
                             tmsize_t (*)(void *, void *, tmsize_t), toff_t (*)(void *, toff_t, int), int (*)(void *),
                             toff_t (*)(void *), int (*)(void *, void **, toff_t *), void (*)(void *, void *, toff_t),
                             TIFFOpenOptions *);
    void (*close)(TIFF *);
    int (*get_field_defaulted)(TIFF *, uint32_t, ...);
    uint32_t (*number_of_directories)(TIFF *);  // tdir_t is uint32_t from 4.5
    int (*read_rgba_oriented)(TIFF *, uint32_t, uint32_t, uint32_t *, int, int);
} tiff;

static pthread_once_t tiff_once = PTHREAD_ONCE_INIT;

static void tiff_load(void) {
    static const char *const sonames[] = {"libtiff.so.6", "libtiff.6.dylib", NULL};
    void *handle = vcodec_open(&tiff.library, sonames);
    if (!handle) return;
    vcodec_library *l = &tiff.library;
    VCODEC_LOAD(*l, handle, tiff.version, "TIFFGetVersion");
    VCODEC_LOAD(*l, handle, tiff.options_alloc, "TIFFOpenOptionsAlloc");
    VCODEC_LOAD(*l, handle, tiff.options_free, "TIFFOpenOptionsFree");
    VCODEC_LOAD(*l, handle, tiff.options_max_alloc, "TIFFOpenOptionsSetMaxSingleMemAlloc");
    VCODEC_LOAD(*l, handle, tiff.options_error_handler, "TIFFOpenOptionsSetErrorHandlerExtR");
    VCODEC_LOAD(*l, handle, tiff.options_warning_handler, "TIFFOpenOptionsSetWarningHandlerExtR");
    VCODEC_LOAD(*l, handle, tiff.client_open_ext, "TIFFClientOpenExt");
    VCODEC_LOAD(*l, handle, tiff.close, "TIFFClose");
    VCODEC_LOAD(*l, handle, tiff.get_field_defaulted, "TIFFGetFieldDefaulted");
    VCODEC_LOAD(*l, handle, tiff.number_of_directories, "TIFFNumberOfDirectories");
    VCODEC_LOAD(*l, handle, tiff.read_rgba_oriented, "TIFFReadRGBAImageOriented");
    if (l->error[0]) return;
    // "LIBTIFF, Version 4.5.0\n…": keep the number.
    const char *text = tiff.version();
    const char *number = text ? strstr(text, "Version ") : NULL;
    vcodec_copy(l->version, sizeof l->version, number ? number + 8 : "unknown");
    l->version[strcspn(l->version, "\n ")] = 0;
    l->loaded = 1;
}

const vcodec_library *vtiff_library(void) {
    pthread_once(&tiff_once, tiff_load);
    return &tiff.library;
}

/// The memory a TIFF is read from, and the first error libtiff reports for it.
typedef struct {
    const uint8_t *data;
    size_t size;
    size_t offset;
    vcodec_status *status;
} vtiff_source;

static tmsize_t source_read(void *handle, void *buffer, tmsize_t count) {
    vtiff_source *source = handle;
    if (count < 0) return -1;
    size_t available = source->offset < source->size ? source->size - source->offset : 0;
    size_t n = (size_t)count < available ? (size_t)count : available;
    memcpy(buffer, source->data + source->offset, n);
    source->offset += n;
    return (tmsize_t)n;
}

static tmsize_t source_write(void *handle, void *buffer, tmsize_t count) { (void)handle; (void)buffer; (void)count; return -1; }

static toff_t source_seek(void *handle, toff_t offset, int whence) {
    vtiff_source *source = handle;
    uint64_t base = whence == 1 ? source->offset : whence == 2 ? source->size : 0;
    uint64_t target = base + offset;
    // Seeking past the end is allowed (reads then return nothing); libtiff treats the short read as an error.
    if (target < base) return (toff_t)-1;
    source->offset = (size_t)target;
    return target;
}

static int source_close(void *handle) { (void)handle; return 0; }
static toff_t source_size(void *handle) { return ((vtiff_source *)handle)->size; }
static int source_map(void *handle, void **base, toff_t *size) { (void)handle; (void)base; (void)size; return 0; }
static void source_unmap(void *handle, void *base, toff_t size) { (void)handle; (void)base; (void)size; }

static int on_error(TIFF *file, void *user, const char *module, const char *format, va_list args) {
    (void)file; (void)module;
    vcodec_status *status = ((vtiff_source *)user)->status;
    if (status->code == 0) {
        status->code = 1;
        vsnprintf(status->message, sizeof status->message, format, args);
        // libtiff's messages for data that ends early (tif_read.c, tif_dirread.c).
        status->truncated = strstr(status->message, "Read error") != NULL || strstr(status->message, "short read") != NULL ||
                            strstr(status->message, "past end") != NULL || strstr(status->message, "Cannot read") != NULL || strstr(status->message, "Can not read") != NULL;
        status->limit_exceeded = strstr(status->message, "Memory allocation of") != NULL;
    }
    return 1;  // handled: nothing reaches stderr
}

static int on_warning(TIFF *file, void *user, const char *module, const char *format, va_list args) {
    (void)file; (void)user; (void)module; (void)format; (void)args;
    return 1;
}

static TIFF *tiff_open(vtiff_source *source, int64_t memory_limit) {
    memset(source->status, 0, sizeof *source->status);
    if (!vtiff_library()->loaded) return vcodec_fail(source->status, -1, tiff.library.error), NULL;
    TIFFOpenOptions *options = tiff.options_alloc();
    if (!options) return vcodec_fail(source->status, -1, "cannot allocate libtiff options"), NULL;
    tiff.options_max_alloc(options, memory_limit);
    tiff.options_error_handler(options, on_error, source);
    tiff.options_warning_handler(options, on_warning, source);
    // "m": never memory-map (there is no file); "h": read the header only (no directory yet is fine).
    TIFF *file = tiff.client_open_ext("memory", "rm", source, source_read, source_write, source_seek, source_close,
                                      source_size, source_map, source_unmap, options);
    tiff.options_free(options);
    if (!file && source->status->code == 0) vcodec_fail(source->status, -1, "libtiff cannot open the data");
    return file;
}

int vtiff_info_read(const uint8_t *data, size_t size, int64_t memory_limit, vtiff_info *info, vcodec_status *status) {
    vtiff_source source = {data, size, 0, status};
    TIFF *file = tiff_open(&source, memory_limit);
    if (!file) return -1;
    uint32_t width = 0, height = 0;
    uint16_t orientation = 1, bits = 1, samples = 1, photometric = 0, compression = 1, extra_count = 0;
    uint16_t *extra_types = NULL;
    tiff.get_field_defaulted(file, VTIFF_IMAGEWIDTH, &width);
    tiff.get_field_defaulted(file, VTIFF_IMAGELENGTH, &height);
    tiff.get_field_defaulted(file, VTIFF_ORIENTATION, &orientation);
    tiff.get_field_defaulted(file, VTIFF_BITSPERSAMPLE, &bits);
    tiff.get_field_defaulted(file, VTIFF_SAMPLESPERPIXEL, &samples);
    tiff.get_field_defaulted(file, VTIFF_PHOTOMETRIC, &photometric);
    tiff.get_field_defaulted(file, VTIFF_COMPRESSION, &compression);
    tiff.get_field_defaulted(file, VTIFF_EXTRASAMPLES, &extra_count, &extra_types);
    info->width = width;
    info->height = height;
    info->orientation = orientation;
    info->bits_per_sample = bits;
    info->samples_per_pixel = samples;
    info->extra_samples = extra_count;
    info->photometric = photometric;
    info->compression = compression;
    info->directory_count = tiff.number_of_directories(file);
    tiff.close(file);
    memset(status, 0, sizeof *status);  // a broken later directory does not make the first one unreadable
    return 0;
}

int vtiff_decode(const uint8_t *data, size_t size, int64_t memory_limit, uint8_t *out, uint32_t width, uint32_t height,
                 vcodec_status *status) {
    vtiff_source source = {data, size, 0, status};
    TIFF *file = tiff_open(&source, memory_limit);
    if (!file) return -1;
    uint32_t file_width = 0, file_height = 0;
    uint16_t orientation = 1;
    tiff.get_field_defaulted(file, VTIFF_IMAGEWIDTH, &file_width);
    tiff.get_field_defaulted(file, VTIFF_IMAGELENGTH, &file_height);
    tiff.get_field_defaulted(file, VTIFF_ORIENTATION, &orientation);
    int result = -1;
    if (file_width != width || file_height != height) {
        vcodec_fail(status, 1, "the first directory's size changed between reads");
    } else {
        // Requesting the file's own orientation makes libtiff copy rows as stored (no flips);
        // Visage applies the orientation itself, as for JPEG's EXIF.
        int requested = orientation >= 1 && orientation <= 8 ? orientation : 1;
        // stopOnError = 1: a damaged strip fails the decode instead of leaving it blank.
        if (tiff.read_rgba_oriented(file, width, height, (uint32_t *)(void *)out, requested, 1) && status->code == 0) {
            result = 0;
        } else if (status->code == 0) {
            vcodec_fail(status, 1, "libtiff cannot decode the image");
        }
    }
    tiff.close(file);
    return result;
}
