#!/usr/bin/env bash
# Checks CImageCodecs' own declarations of libavif, libwebp and libheif structures against the real
# headers, without installing them: `apt-get download` fetches the -dev packages into a scratch folder,
# which is unpacked there (run `apt-get update` once first on a fresh machine), and a C program compiled against those headers prints each field's offset
# beside the shim's. Run it when a soname CImageCodecs loads changes version. Needs apt-get and a C compiler.
#
# Usage: Scripts/check-codec-abi.sh      (exit 1 on any mismatch)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d "${TMPDIR:-/tmp}/visage-codec-abi.XXXXXX")"
trap 'rm -rf "$work"' EXIT
cd "$work"
apt-get download libavif-dev libwebp-dev libheif-dev > /dev/null
for deb in *.deb; do dpkg-deb -x "$deb" headers; done
include="$work/headers/usr/include"
shim="$root/Sources/CImageCodecs"
cat > check.c <<C
#include <stdio.h>
#include <stddef.h>
#include <avif/avif.h>
#include <webp/decode.h>
#include <libheif/heif.h>
#include "$shim/avif.c"
#include "$shim/webp.c"
#include "$shim/heif.c"
static int failures = 0;
#define CHECK(real, mine, field) do { size_t a = offsetof(real, field), b = offsetof(mine, field); \\
    printf("%-48s %4zu %4zu %s\n", #real "." #field, a, b, a == b ? "ok" : "MISMATCH"); failures += a != b; } while (0)
#define SIZE(real, mine) do { printf("%-48s %4zu %4zu %s\n", "sizeof " #real, sizeof(real), sizeof(mine), \\
    sizeof(real) == sizeof(mine) ? "ok" : "MISMATCH"); failures += sizeof(real) != sizeof(mine); } while (0)
int main(void) {
    CHECK(avifImage, vavifImage, depth); CHECK(avifImage, vavifImage, yuvPlanes); CHECK(avifImage, vavifImage, alphaPlane);
    CHECK(avifImage, vavifImage, icc); CHECK(avifImage, vavifImage, matrixCoefficients); CHECK(avifImage, vavifImage, transformFlags);
    CHECK(avifImage, vavifImage, clap); CHECK(avifImage, vavifImage, irot); CHECK(avifImage, vavifImage, imir); CHECK(avifImage, vavifImage, xmp);
    SIZE(avifImage, vavifImage);
    CHECK(avifRGBImage, vavifRGBImage, format); CHECK(avifRGBImage, vavifRGBImage, isFloat); CHECK(avifRGBImage, vavifRGBImage, pixels);
    CHECK(avifRGBImage, vavifRGBImage, rowBytes); SIZE(avifRGBImage, vavifRGBImage);
    CHECK(avifDecoder, vavifDecoder, maxThreads); CHECK(avifDecoder, vavifDecoder, ignoreXMP); CHECK(avifDecoder, vavifDecoder, imageSizeLimit);
    CHECK(avifDecoder, vavifDecoder, imageDimensionLimit); CHECK(avifDecoder, vavifDecoder, image); CHECK(avifDecoder, vavifDecoder, imageCount);
    CHECK(avifDecoder, vavifDecoder, imageTiming); CHECK(avifDecoder, vavifDecoder, alphaPresent);
    CHECK(WebPBitstreamFeatures, VWebPBitstreamFeatures, has_animation); CHECK(WebPBitstreamFeatures, VWebPBitstreamFeatures, format);
    SIZE(WebPBitstreamFeatures, VWebPBitstreamFeatures);
    CHECK(struct heif_decoding_options, vheif_decoding_options, ignore_transformations);
    CHECK(struct heif_decoding_options, vheif_decoding_options, convert_hdr_to_8bit);
    CHECK(struct heif_error, vheif_error, message); SIZE(struct heif_error, vheif_error);
    printf("%s\n", failures ? "MISMATCH" : "all match");
    return failures != 0;
}
C
cc -w -I "$include" -I "$include/$(gcc -dumpmachine)" -I "$shim/include" -I "$shim" check.c "$shim/loader.c" -o check -ldl -lpthread
./check
