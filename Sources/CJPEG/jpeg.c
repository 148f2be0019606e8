// libjpeg behind setjmp: see include/CJPEG.h. Every entry point sets its own jump target, so a
// longjmp only ever returns into the C frame that set it.
#include "CJPEG.h"

#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <jpeglib.h>
#include <jerror.h>

typedef struct {
    struct jpeg_error_mgr base;
    jmp_buf jump;
    vjpeg_status *status;
} vjpeg_error_mgr;

typedef struct {
    struct jpeg_progress_mgr base;
    int max_scans;
} vjpeg_progress_mgr;

struct vjpeg_decoder {
    struct jpeg_decompress_struct cinfo;  // first: the source manager finds the decoder from it
    struct jpeg_source_mgr pieces_source;  // vjpeg_create_pieces' source
    const uint8_t *pieces[2];
    size_t piece_sizes[2];
    int piece;                             // the next piece to hand out
    int ends_with_eoi;                     // serve one EOI marker after the pieces, without a warning
    vjpeg_error_mgr error;
    vjpeg_progress_mgr progress;
    vjpeg_status status;
    int started;
    uint8_t *strip;  // SCRATCH_ROWS rows of `strip_pitch` bytes, none 16-byte aligned (JPOOL_IMAGE)
    size_t strip_pitch;
};

// libjpeg-turbo's SIMD colour conversion writes an output row that starts 16-byte aligned with
// non-temporal stores, which leave the picture out of the cache: the warp that reads it straight after
// then ran 3-4x slower (about 0.1 ms more per 640x480 photo). Such rows are decoded into a small strip
// whose rows are not aligned, and copied from there while it is still in the cache. A picture larger
// than a core's cache would leave it anyway: it keeps the streaming stores and is spared the copy
// (a 12-megapixel full decode took 4 % longer with it). VisageImage allocates its JPEG pictures up to
// that size 8 bytes past a 64-byte boundary, so their rows (a multiple of 16 bytes long, as most are)
// are never aligned and are written in place: the copy is only for other callers and odd row lengths.
#define SCRATCH_ROWS 16
#define STRIP_LIMIT ((size_t)1 << 20)

static int bypasses_cache(const uint8_t *row) { return ((uintptr_t)row & 15) == 0; }

int vjpeg_code_truncated_input(void) { return JERR_INPUT_EOF; }
int vjpeg_code_no_image(void) { return JERR_NO_IMAGE; }
int vjpeg_code_out_of_memory(void) { return JERR_OUT_OF_MEMORY; }

static void on_error_exit(j_common_ptr cinfo) {
    vjpeg_error_mgr *error = (vjpeg_error_mgr *)cinfo->err;
    error->status->message_code = error->base.msg_code;
    error->base.format_message(cinfo, error->status->message);
    longjmp(error->jump, 1);
}

// Warnings are counted, never printed. Data that stops early marks the image truncated: the end of the
// bytes (JWRN_JPEG_EOF), or a marker where entropy-coded data should go on (JWRN_HIT_MARKER), after
// which libjpeg would fill the rest of the picture with gray — a few bytes could then claim 100 MP.
static void on_message(j_common_ptr cinfo, int level) {
    vjpeg_error_mgr *error = (vjpeg_error_mgr *)cinfo->err;
    if (level >= 0) return;
    error->base.num_warnings++;
    error->status->warning_count++;
    if (error->base.msg_code == JWRN_JPEG_EOF || error->base.msg_code == JWRN_HIT_MARKER) error->status->truncated = 1;
}

static void on_output_message(j_common_ptr cinfo) { (void)cinfo; }

// A progressive file can hold thousands of tiny scans, each a full pass over the coefficients.
static void on_progress(j_common_ptr cinfo) {
    vjpeg_progress_mgr *progress = (vjpeg_progress_mgr *)cinfo->progress;
    if (!cinfo->is_decompressor || progress->max_scans <= 0) return;
    if (((j_decompress_ptr)cinfo)->input_scan_number > progress->max_scans) {
        vjpeg_error_mgr *error = (vjpeg_error_mgr *)cinfo->err;
        error->status->message_code = VJPEG_TOO_MANY_SCANS;
        snprintf(error->status->message, sizeof error->status->message,
                 "progressive JPEG with more than %d scans", progress->max_scans);
        longjmp(error->jump, 1);
    }
}

static void install_errors(vjpeg_error_mgr *error, vjpeg_status *status) {
    jpeg_std_error(&error->base);
    error->base.error_exit = on_error_exit;
    error->base.emit_message = on_message;
    error->base.output_message = on_output_message;
    error->status = status;
}

// A source of two pieces of bytes, then the end: as jpeg_mem_src past its end, an EOI marker is inserted
// and JWRN_JPEG_EOF warned (which marks the data truncated).
static const JOCTET end_of_image[2] = {0xFF, JPEG_EOI};

static void pieces_init(j_decompress_ptr cinfo) { (void)cinfo; }

static boolean pieces_fill(j_decompress_ptr cinfo) {
    vjpeg_decoder *decoder = (vjpeg_decoder *)cinfo;
    while (decoder->piece < 2) {
        int index = decoder->piece++;
        if (decoder->piece_sizes[index] == 0) continue;
        cinfo->src->next_input_byte = decoder->pieces[index];
        cinfo->src->bytes_in_buffer = decoder->piece_sizes[index];
        return TRUE;
    }
    if (decoder->ends_with_eoi) {
        decoder->ends_with_eoi = 0;
    } else {
        WARNMS(cinfo, JWRN_JPEG_EOF);
    }
    cinfo->src->next_input_byte = end_of_image;
    cinfo->src->bytes_in_buffer = 2;
    return TRUE;
}

static void pieces_skip(j_decompress_ptr cinfo, long count) {
    while (count > 0) {
        if (cinfo->src->bytes_in_buffer == 0) (void)pieces_fill(cinfo);
        size_t step = (size_t)count < cinfo->src->bytes_in_buffer ? (size_t)count : cinfo->src->bytes_in_buffer;
        cinfo->src->next_input_byte += step;
        cinfo->src->bytes_in_buffer -= step;
        count -= (long)step;
    }
}

static void pieces_term(j_decompress_ptr cinfo) { (void)cinfo; }

static vjpeg_decoder *create(const uint8_t *data, size_t size, const uint8_t *more, size_t more_size, int in_pieces,
                             long max_memory, int max_scans);

vjpeg_decoder *vjpeg_create(const uint8_t *data, size_t size, long max_memory, int max_scans) {
    return create(data, size, NULL, 0, 0, max_memory, max_scans);
}

vjpeg_decoder *vjpeg_create_pieces(const uint8_t *prefix, size_t prefix_size, const uint8_t *body, size_t body_size,
                                   int ends_with_eoi, long max_memory, int max_scans) {
    vjpeg_decoder *decoder = create(prefix, prefix_size, body, body_size, 1, max_memory, max_scans);
    if (decoder) decoder->ends_with_eoi = ends_with_eoi;
    return decoder;
}

static vjpeg_decoder *create(const uint8_t *data, size_t size, const uint8_t *more, size_t more_size, int in_pieces,
                             long max_memory, int max_scans) {
    vjpeg_decoder *decoder = calloc(1, sizeof *decoder);
    if (!decoder) return NULL;
    install_errors(&decoder->error, &decoder->status);
    decoder->cinfo.err = &decoder->error.base;
    if (setjmp(decoder->error.jump)) {
        jpeg_destroy_decompress(&decoder->cinfo);
        free(decoder);
        return NULL;
    }
    jpeg_create_decompress(&decoder->cinfo);
    if (max_memory > 0) decoder->cinfo.mem->max_memory_to_use = max_memory;
    decoder->progress.base.progress_monitor = on_progress;
    decoder->progress.max_scans = max_scans;
    decoder->cinfo.progress = &decoder->progress.base;
    if (in_pieces) {
        decoder->pieces[0] = data;
        decoder->piece_sizes[0] = size;
        decoder->pieces[1] = more;
        decoder->piece_sizes[1] = more_size;
        decoder->pieces_source.init_source = pieces_init;
        decoder->pieces_source.fill_input_buffer = pieces_fill;
        decoder->pieces_source.skip_input_data = pieces_skip;
        decoder->pieces_source.resync_to_restart = jpeg_resync_to_restart;
        decoder->pieces_source.term_source = pieces_term;
        decoder->cinfo.src = &decoder->pieces_source;
    } else {
        jpeg_mem_src(&decoder->cinfo, data, (unsigned long)size);
    }
    return decoder;
}

void vjpeg_destroy(vjpeg_decoder *decoder) {
    if (!decoder) return;
    // jpeg_destroy releases every pool; it cannot fail, but keep a jump target in case it reports.
    if (!setjmp(decoder->error.jump)) jpeg_destroy_decompress(&decoder->cinfo);
    free(decoder);
}

const vjpeg_status *vjpeg_status_of(const vjpeg_decoder *decoder) { return &decoder->status; }

static vjpeg_color color_of(J_COLOR_SPACE space) {
    switch (space) {
    case JCS_GRAYSCALE: return VJPEG_COLOR_GRAY;
    case JCS_RGB: return VJPEG_COLOR_RGB;
    case JCS_YCbCr: return VJPEG_COLOR_YCBCR;
    case JCS_CMYK: return VJPEG_COLOR_CMYK;
    case JCS_YCCK: return VJPEG_COLOR_YCCK;
    default: return VJPEG_COLOR_UNKNOWN;
    }
}

int vjpeg_read_header(vjpeg_decoder *decoder, vjpeg_header *header) {
    if (setjmp(decoder->error.jump)) return -1;
    jpeg_read_header(&decoder->cinfo, TRUE);
    header->width = decoder->cinfo.image_width;
    header->height = decoder->cinfo.image_height;
    header->components = decoder->cinfo.num_components;
    header->color = color_of(decoder->cinfo.jpeg_color_space);
    header->progressive = decoder->cinfo.progressive_mode ? 1 : 0;
    return 0;
}

int vjpeg_start(vjpeg_decoder *decoder, int scale_num, vjpeg_output output, uint32_t *out_width, uint32_t *out_height) {
    if (setjmp(decoder->error.jump)) return -1;
    struct jpeg_decompress_struct *cinfo = &decoder->cinfo;
    cinfo->scale_num = (unsigned int)scale_num;
    cinfo->scale_denom = 8;
    cinfo->dct_method = JDCT_ISLOW;
    cinfo->do_fancy_upsampling = TRUE;
    switch (output) {
    case VJPEG_OUT_GRAY: cinfo->out_color_space = JCS_GRAYSCALE; break;
    case VJPEG_OUT_CMYK: cinfo->out_color_space = JCS_CMYK; break;
    default: cinfo->out_color_space = JCS_EXT_RGB; break;
    }
    jpeg_start_decompress(cinfo);
    decoder->started = 1;
    *out_width = cinfo->output_width;
    *out_height = cinfo->output_height;
    return 0;
}

int vjpeg_crop_columns(vjpeg_decoder *decoder, uint32_t *x, uint32_t *width) {
    if (setjmp(decoder->error.jump)) return -1;
    JDIMENSION offset = *x, count = *width;
    jpeg_crop_scanline(&decoder->cinfo, &offset, &count);
    *x = offset;
    *width = count;
    return 0;
}

int vjpeg_skip_rows(vjpeg_decoder *decoder, uint32_t rows, uint32_t *skipped) {
    if (setjmp(decoder->error.jump)) return -1;
    *skipped = jpeg_skip_scanlines(&decoder->cinfo, rows);
    return 0;
}

int vjpeg_read_rows(vjpeg_decoder *decoder, uint8_t *destination, size_t stride, uint32_t rows, uint32_t *decoded) {
    *decoded = 0;
    if (setjmp(decoder->error.jump)) return -1;
    struct jpeg_decompress_struct *cinfo = &decoder->cinfo;
    const size_t row_bytes = (size_t)cinfo->output_width * (size_t)cinfo->output_components;
    const int converts = cinfo->out_color_space == JCS_EXT_RGB && row_bytes * cinfo->output_height <= STRIP_LIMIT;
    JSAMPROW pointers[SCRATCH_ROWS];
    uint32_t done = 0;
    while (done < rows && cinfo->output_scanline < cinfo->output_height) {
        uint32_t batch = rows - done < SCRATCH_ROWS ? rows - done : SCRATCH_ROWS;
        int staged = 0;
        for (uint32_t row = 0; row < batch; row++) {
            uint8_t *target = destination + (size_t)(done + row) * stride;
            if (converts && bypasses_cache(target)) {
                if (!decoder->strip) {
                    // Rows a multiple of 64 bytes apart, the first 8 bytes past a 64-byte boundary.
                    decoder->strip_pitch = (row_bytes + 63) & ~(size_t)63;
                    uint8_t *block = (*cinfo->mem->alloc_large)(
                        (j_common_ptr)cinfo, JPOOL_IMAGE, SCRATCH_ROWS * decoder->strip_pitch + 72);
                    decoder->strip = (uint8_t *)(((uintptr_t)block + 63) & ~(uintptr_t)63) + 8;
                }
                target = decoder->strip + (size_t)row * decoder->strip_pitch;
                staged = 1;
            }
            pointers[row] = target;
        }
        JDIMENSION got = jpeg_read_scanlines(cinfo, pointers, batch);
        if (staged) {
            for (uint32_t row = 0; row < got; row++) {
                uint8_t *target = destination + (size_t)(done + row) * stride;
                if (pointers[row] != target) memcpy(target, pointers[row], row_bytes);
            }
        }
        if (got == 0) break;
        done += got;
        *decoded = done;
        // The rest would be padding: stop decoding it.
        if (decoder->status.truncated) return 0;
    }
    // Reading the last row also reads the trailing markers, where a missing EOI shows up.
    if (cinfo->output_scanline == cinfo->output_height) {
        jpeg_finish_decompress(cinfo);
        decoder->strip = NULL;  // freed with the image's pool
    }
    return 0;
}

size_t vjpeg_cached_picture_limit(void) { return STRIP_LIMIT; }

uint32_t vjpeg_output_row(const vjpeg_decoder *decoder) { return decoder->cinfo.output_scanline; }

// libjpeg's upsampler reads the rows above and below (its "context rows") only for smooth vertical
// upsampling: a component whose IDCT output is shorter than the picture's rows (jdsample.c's h2v2 and
// h1v2 fancy cases). Box upsampling and IDCT-scaled chroma stay within an MCU row.
int vjpeg_rows_need_context(const vjpeg_decoder *decoder) {
    const struct jpeg_decompress_struct *cinfo = &decoder->cinfo;
    if (!cinfo->do_fancy_upsampling) return 0;
    for (int index = 0; index < cinfo->num_components; index++) {
        const jpeg_component_info *component = &cinfo->comp_info[index];
#if JPEG_LIB_VERSION >= 70
        int scaled = component->DCT_v_scaled_size, smallest = cinfo->min_DCT_v_scaled_size;
#else
        int scaled = component->DCT_scaled_size, smallest = cinfo->min_DCT_scaled_size;
#endif
        if (component->v_samp_factor * scaled != cinfo->max_v_samp_factor * smallest) return 1;
    }
    return 0;
}

int vjpeg_encode(const uint8_t *pixels, uint32_t width, uint32_t height, size_t stride, int channels, int bgr_order,
                 int quality, int subsampling, int restart_interval, int restart_rows, uint8_t **output,
                 unsigned long *output_size, vjpeg_status *status) {
    struct jpeg_compress_struct cinfo;
    vjpeg_error_mgr error;
    memset(status, 0, sizeof *status);
    *output = NULL;
    *output_size = 0;
    install_errors(&error, status);
    cinfo.err = &error.base;
    // libjpeg owns *output until jpeg_destroy; on failure it is freed here, never handed to Swift.
    unsigned char *volatile buffer = NULL;
    unsigned long volatile size = 0;
    if (setjmp(error.jump)) {
        jpeg_destroy_compress(&cinfo);
        free(buffer);
        return -1;
    }
    jpeg_create_compress(&cinfo);
    jpeg_mem_dest(&cinfo, (unsigned char **)&buffer, (unsigned long *)&size);
    cinfo.image_width = width;
    cinfo.image_height = height;
    cinfo.input_components = channels;
    cinfo.in_color_space = channels == 1 ? JCS_GRAYSCALE
                         : channels == 3 ? JCS_EXT_RGB
                         : bgr_order ? JCS_EXT_BGRA : JCS_EXT_RGBA;
    jpeg_set_defaults(&cinfo);
    jpeg_set_quality(&cinfo, quality, TRUE);
    cinfo.dct_method = JDCT_ISLOW;
    if (restart_interval > 0 && restart_interval <= 65535) cinfo.restart_interval = (unsigned int)restart_interval;
    else if (restart_rows > 0 && restart_rows <= 65535) cinfo.restart_in_rows = restart_rows;
    if (channels != 1) {
        int factor = subsampling ? 2 : 1;
        cinfo.comp_info[0].h_samp_factor = factor;
        cinfo.comp_info[0].v_samp_factor = factor;
        for (int component = 1; component < cinfo.num_components; component++) {
            cinfo.comp_info[component].h_samp_factor = 1;
            cinfo.comp_info[component].v_samp_factor = 1;
        }
    }
    jpeg_start_compress(&cinfo, TRUE);
    while (cinfo.next_scanline < cinfo.image_height) {
        JSAMPROW row = (JSAMPROW)(pixels + (size_t)cinfo.next_scanline * stride);
        jpeg_write_scanlines(&cinfo, &row, 1);
    }
    jpeg_finish_compress(&cinfo);
    *output = buffer;
    *output_size = size;
    // jpeg_destroy frees only libjpeg's pools; the mem destination's buffer now belongs to the caller.
    jpeg_destroy_compress(&cinfo);
    return 0;
}

void vjpeg_free(void *pointer) { free(pointer); }
