// libpng behind setjmp: see include/CPNG.h. Every entry point sets its own jump target, so a longjmp
// only ever returns into the C frame that set it.
#include "CPNG.h"

#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <png.h>

struct vpng_decoder {
    png_structp png;
    png_infop info;
    const uint8_t *data;
    size_t size, offset;
    vpng_status status;
    size_t max_memory;
    uint32_t height;
    int passes;
};

static void on_error(png_structp png, png_const_charp message) {
    vpng_decoder *decoder = png_get_error_ptr(png);
    snprintf(decoder->status.message, sizeof decoder->status.message, "%s", message);
    png_longjmp(png, 1);
}

// Warnings (benign errors, skipped chunks, CRC mismatches in ancillary chunks) are not reported.
static void on_warning(png_structp png, png_const_charp message) { (void)png; (void)message; }

static void on_read(png_structp png, png_bytep out, size_t count) {
    vpng_decoder *decoder = png_get_io_ptr(png);
    if (decoder->size - decoder->offset < count) {
        decoder->status.truncated = 1;
        png_error(png, "read beyond end of data");
    }
    memcpy(out, decoder->data + decoder->offset, count);
    decoder->offset += count;
}

// libpng's memory goes through these, so it is counted and capped. Each block carries its size in front.
enum { HEADER = 16 };

static png_voidp on_malloc(png_structp png, png_alloc_size_t size) {
    vpng_decoder *decoder = png_get_mem_ptr(png);
    vpng_status *status = &decoder->status;
    if (size > decoder->max_memory - status->live_bytes || status->live_bytes > decoder->max_memory) return NULL;
    unsigned char *block = malloc(size + HEADER);
    if (!block) return NULL;
    memcpy(block, &size, sizeof size);
    status->live_bytes += size;
    if (status->live_bytes > status->peak_bytes) status->peak_bytes = status->live_bytes;
    return block + HEADER;
}

static void on_free(png_structp png, png_voidp pointer) {
    if (!pointer) return;
    vpng_decoder *decoder = png_get_mem_ptr(png);
    unsigned char *block = (unsigned char *)pointer - HEADER;
    png_alloc_size_t size;
    memcpy(&size, block, sizeof size);
    decoder->status.live_bytes -= size;
    free(block);
}

vpng_decoder *vpng_create(const uint8_t *data, size_t size, uint32_t max_side, size_t max_chunk_bytes, size_t max_memory) {
    vpng_decoder *decoder = calloc(1, sizeof *decoder);
    if (!decoder) return NULL;
    decoder->data = data;
    decoder->size = size;
    decoder->max_memory = max_memory;
    decoder->png = png_create_read_struct_2(
        PNG_LIBPNG_VER_STRING, decoder, on_error, on_warning, decoder, on_malloc, on_free);
    if (!decoder->png) { free(decoder); return NULL; }
    if (setjmp(png_jmpbuf(decoder->png))) {
        png_destroy_read_struct(&decoder->png, &decoder->info, NULL);
        free(decoder);
        return NULL;
    }
    decoder->info = png_create_info_struct(decoder->png);
    png_set_user_limits(decoder->png, max_side, max_side);
    png_set_chunk_malloc_max(decoder->png, max_chunk_bytes);
    png_set_chunk_cache_max(decoder->png, 32);
    // A negative count applies to every chunk but IHDR, PLTE, tRNS, IDAT and IEND: skipped, never stored.
    png_set_keep_unknown_chunks(decoder->png, PNG_HANDLE_CHUNK_NEVER, NULL, -1);
    png_set_read_fn(decoder->png, decoder, on_read);
    return decoder;
}

void vpng_destroy(vpng_decoder *decoder) {
    if (!decoder) return;
    png_destroy_read_struct(&decoder->png, &decoder->info, NULL);
    free(decoder);
}

const vpng_status *vpng_status_of(const vpng_decoder *decoder) { return &decoder->status; }

int vpng_read_header(vpng_decoder *decoder, vpng_header *header) {
    png_structp png = decoder->png;
    png_infop info = decoder->info;
    if (setjmp(png_jmpbuf(png))) return -1;
    png_read_info(png, info);
    int color_type = png_get_color_type(png, info);
    int bit_depth = png_get_bit_depth(png, info);
    int transparent = png_get_valid(png, info, PNG_INFO_tRNS) != 0;
    header->width = png_get_image_width(png, info);
    header->height = png_get_image_height(png, info);
    header->bit_depth = bit_depth;
    header->color_type = color_type;
    header->interlaced = png_get_interlace_type(png, info) != PNG_INTERLACE_NONE;
    // Palettes to RGB, 1/2/4-bit gray to 0…255, tRNS to an alpha channel; 16 bits to 8 by rounding.
    if (color_type == PNG_COLOR_TYPE_PALETTE || bit_depth < 8 || transparent) png_set_expand(png);
    if (bit_depth == 16) png_set_scale_16(png);
    int has_alpha = (color_type & PNG_COLOR_MASK_ALPHA) != 0 || transparent;
    if (has_alpha && (color_type & PNG_COLOR_MASK_COLOR) == 0) png_set_gray_to_rgb(png);
    decoder->passes = png_set_interlace_handling(png);
    png_read_update_info(png, info);
    header->channels = png_get_channels(png, info);
    decoder->height = header->height;
    if (png_get_bit_depth(png, info) != 8 || png_get_rowbytes(png, info) != (size_t)header->width * header->channels) {
        snprintf(decoder->status.message, sizeof decoder->status.message, "unexpected output layout");
        return -1;
    }
    return 0;
}

int vpng_read_image(vpng_decoder *decoder, uint8_t *destination, size_t stride) {
    png_structp png = decoder->png;
    if (setjmp(png_jmpbuf(png))) return -1;
    // Interlaced passes write into the same rows, each filling in its own pixels.
    for (int pass = 0; pass < decoder->passes; pass++) {
        for (uint32_t row = 0; row < decoder->height; row++) png_read_row(png, destination + (size_t)row * stride, NULL);
    }
    png_read_end(png, NULL);
    return 0;
}
