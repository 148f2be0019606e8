// A thin shim over libjpeg's own API for VisageImage. Not a stable API.
//
// libjpeg reports errors by calling error_exit, which must not return. Every function here sets a
// `setjmp` point and installs an error manager that `longjmp`s back to it, so control never unwinds
// through a Swift frame. Each function returns 0 on success and -1 on a fatal error, whose libjpeg
// message code and text are then in the decoder's `error` field.
#ifndef CJPEG_H
#define CJPEG_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct vjpeg_decoder vjpeg_decoder;

typedef struct {
    int message_code;      // libjpeg's J_MESSAGE_CODE of the last fatal error, or 0
    int warning_count;     // corrupt-data warnings so far (libjpeg carries on after them)
    int truncated;         // libjpeg hit the end of the data before the image ended (JWRN_JPEG_EOF)
    char message[200];     // the fatal error's text, formatted by libjpeg
} vjpeg_status;

/// The message codes Swift needs to classify errors without reading their text.
enum {
    VJPEG_TOO_MANY_SCANS = 10000,  // Visage's own: a progressive file with more scans than allowed
};
int vjpeg_code_truncated_input(void);   // JERR_INPUT_EOF
int vjpeg_code_no_image(void);          // JERR_NO_IMAGE
int vjpeg_code_out_of_memory(void);     // JERR_OUT_OF_MEMORY

typedef enum {
    VJPEG_COLOR_UNKNOWN = 0, VJPEG_COLOR_GRAY = 1, VJPEG_COLOR_RGB = 2, VJPEG_COLOR_YCBCR = 3,
    VJPEG_COLOR_CMYK = 4, VJPEG_COLOR_YCCK = 5,
} vjpeg_color;

typedef enum { VJPEG_OUT_GRAY = 1, VJPEG_OUT_RGB = 3, VJPEG_OUT_CMYK = 4 } vjpeg_output;

typedef struct {
    uint32_t width, height;
    int components;
    vjpeg_color color;
    int progressive;
} vjpeg_header;

/// A decoder over `size` bytes at `data`, which must stay valid until `vjpeg_destroy`.
/// `max_memory` caps libjpeg's working memory in bytes (0: libjpeg's default); `max_scans` caps
/// progressive scans (0: no cap). NULL when out of memory.
vjpeg_decoder *vjpeg_create(const uint8_t *data, size_t size, long max_memory, int max_scans);
/// A decoder over `prefix` followed by `body` (both must outlive it), as if they were one file: for a band
/// of a file's rows, the file's headers with its frame height changed, then its entropy-coded data from a
/// restart marker on. With `ends_with_eoi` an EOI marker follows the body (a band that stops before the
/// next band's marker); past the end it behaves as at the end of `vjpeg_create`'s data.
vjpeg_decoder *vjpeg_create_pieces(const uint8_t *prefix, size_t prefix_size, const uint8_t *body, size_t body_size,
                                   int ends_with_eoi, long max_memory, int max_scans);
void vjpeg_destroy(vjpeg_decoder *decoder);
const vjpeg_status *vjpeg_status_of(const vjpeg_decoder *decoder);

int vjpeg_read_header(vjpeg_decoder *decoder, vjpeg_header *header);

/// Starts decompression at `scale_num`/8 (1…16) into `output` pixels; the accurate integer IDCT and
/// smooth upsampling, libjpeg's defaults. Writes the scaled output size.
int vjpeg_start(vjpeg_decoder *decoder, int scale_num, vjpeg_output output, uint32_t *out_width, uint32_t *out_height);

/// Narrows every following row to columns [*x, *x + *width). libjpeg widens the range to whole iMCUs
/// and writes the range it will deliver back.
int vjpeg_crop_columns(vjpeg_decoder *decoder, uint32_t *x, uint32_t *width);

/// Skips `rows` output rows without producing them; writes how many were skipped.
int vjpeg_skip_rows(vjpeg_decoder *decoder, uint32_t rows, uint32_t *skipped);

/// Decodes up to `rows` rows into `destination`, `stride` bytes apart; writes how many were decoded.
int vjpeg_read_rows(vjpeg_decoder *decoder, uint8_t *destination, size_t stride, uint32_t rows, uint32_t *decoded);

/// The largest RGB picture (bytes) `vjpeg_read_rows` keeps in the cache: one whose rows start 16-byte
/// aligned is decoded through a small strip and copied, since libjpeg-turbo writes aligned rows with
/// non-temporal stores. A destination whose rows are not aligned (VisageImage's JPEG pictures up to this
/// size start 8 bytes past a 64-byte boundary) is written straight, without the copy.
size_t vjpeg_cached_picture_limit(void);

/// The next row to be produced, in output rows.
uint32_t vjpeg_output_row(const vjpeg_decoder *decoder);

/// After `vjpeg_start`: 1 when an output row depends on the MCU rows above or below it (smooth vertical
/// chroma upsampling), so a band of rows decoded on its own would differ at its edges; else 0.
int vjpeg_rows_need_context(const vjpeg_decoder *decoder);

/// Compresses `height` rows of `width` pixels. `channels` is 1 (gray), 3 (RGB) or 4 (`bgr_order` 0:
/// RGBA, 1: BGRA); `subsampling` is 0 for 4:4:4 or 1 for 4:2:0. The accurate integer DCT. A restart
/// marker every `restart_interval` MCUs, or else every `restart_rows` rows of MCUs (0 and 0: none). On
/// success `*output` is a malloc'd buffer of `*output_size` bytes for the caller to free with `vjpeg_free`.
int vjpeg_encode(const uint8_t *pixels, uint32_t width, uint32_t height, size_t stride, int channels, int bgr_order,
                 int quality, int subsampling, int restart_interval, int restart_rows, uint8_t **output,
                 unsigned long *output_size, vjpeg_status *status);
void vjpeg_free(void *pointer);

#ifdef __cplusplus
}
#endif

#endif
