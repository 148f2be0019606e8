// A thin shim over libpng's low-level read API for VisageImage. Not a stable API.
//
// libpng reports errors by longjmp. Every function here sets its own `setjmp` point and installs error
// and warning functions that record the message, so control never unwinds through a Swift frame and
// nothing is printed. Each function returns 0 on success and -1 on a fatal error, described in the
// decoder's status.
//
// Untrusted files are read with every limit libpng has set: the image size (png_set_user_limits), the
// largest chunk libpng will allocate (png_set_chunk_malloc_max), the number of ancillary chunks it keeps
// (png_set_chunk_cache_max), and every ancillary chunk except tRNS skipped unread, so no text or ICC
// chunk is ever allocated or inflated. Image data inflates only into rows the caller allocated.
#ifndef CPNG_H
#define CPNG_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct vpng_decoder vpng_decoder;

typedef struct {
    int truncated;       // the data ended before libpng had read what it needed
    size_t live_bytes;   // what libpng holds now, through its allocator
    size_t peak_bytes;   // the most libpng has held at once
    char message[200];   // the fatal error's text
} vpng_status;

typedef struct {
    uint32_t width, height;
    int bit_depth;       // as stored: 1, 2, 4, 8 or 16
    int color_type;      // as stored: 0 gray, 2 RGB, 3 palette, 4 gray+alpha, 6 RGBA
    int interlaced;
    int channels;        // of the 8-bit output: 1 gray, 3 RGB, 4 RGBA (gray+alpha and tRNS become RGBA)
} vpng_header;

/// A decoder over `size` bytes at `data`, which must stay valid until `vpng_destroy`. `max_side` caps
/// the width and the height libpng accepts; `max_chunk_bytes` caps any chunk libpng allocates;
/// `max_memory` caps everything libpng holds at once (an allocation beyond it fails as out of memory).
/// NULL when out of memory.
vpng_decoder *vpng_create(const uint8_t *data, size_t size, uint32_t max_side, size_t max_chunk_bytes, size_t max_memory);
void vpng_destroy(vpng_decoder *decoder);
const vpng_status *vpng_status_of(const vpng_decoder *decoder);

/// Reads the chunks up to the image data and sets the 8-bit output transforms.
int vpng_read_header(vpng_decoder *decoder, vpng_header *header);

/// Decodes every row (every interlace pass) into `destination`, rows `stride` bytes apart, each at
/// least width × channels bytes; then reads the chunks after the image data up to IEND.
int vpng_read_image(vpng_decoder *decoder, uint8_t *destination, size_t stride);

#ifdef __cplusplus
}
#endif

#endif
