#!/usr/bin/env bash
# Coverage-guided fuzzing with libFuzzer: Scripts/fuzz.sh TARGET SECONDS [libFuzzer options…]
#
# Targets (Fuzz/Targets/*.swift, seeds in Fuzz/Seeds/TARGET):
#   image-jpeg image-png image-pnm image-gif image-bmp image-tiff image-webp image-heif image-avif
#              Image(data:) and ImageFileInfo on every format (one harness, a seed corpus per format)
#   info       ImageFileInfo alone          exif   the EXIF reader, through JPEG APP1 and PNG eXIf
#   tflite     Model load, plan, one invoke y4m    YUV4MPEG2 framing       raw   raw RGB24 framing
#   service    the service's request parsing: query options, multipart, base64 JSON, WebSocket text
#   jpeg-shrink fast detection's shrink-on-load JPEG readers (JPEGSparseDecoder's letterbox and pixels,
#              JPEGDCDecoder through a 1/8 decode), checked against libjpeg's decode (harness jpeg_shrink.swift)
#
# SwiftPM links executables with `--defsym main=<Target>_main`, which a libFuzzer harness (whose main
# is libFuzzer's) does not define. So the library modules are built by SwiftPM with coverage and
# AddressSanitizer instrumentation (release, scratch path Fuzz/.build), and the harness is compiled
# and linked here by swiftc against their objects. New inputs go to Fuzz/.corpus/TARGET (not committed);
# crashes to Fuzz/.crashes/TARGET. The last line of the log is the run's summary for FUZZING.md.
set -euo pipefail
cd "$(dirname "$0")/.."
target=${1:?usage: Scripts/fuzz.sh TARGET SECONDS [libFuzzer options]}
seconds=${2:?usage: Scripts/fuzz.sh TARGET SECONDS [libFuzzer options]}
shift 2

case $target in
    image-*) harness=image; modules="VisageGeometry VisageImage CJPEG CPNG CImageCodecs CVisageKernels" ;;
    info|exif) harness=$target; modules="VisageGeometry VisageImage CJPEG CPNG CImageCodecs CVisageKernels" ;;
    tflite) harness=tflite; modules="VisageNN CVisageKernels" ;;
    y4m|raw) harness=$target; modules="VisageVideo VisageGeometry VisageImage CJPEG CPNG CImageCodecs CVisageKernels" ;;
    service) harness=service; modules="" ;;   # every module of VisageService's build (Hummingbird, NIO …), below
    jpeg-shrink) harness=jpeg_shrink; modules="VisageGeometry VisageImage CJPEG CPNG CImageCodecs CVisageKernels" ;;
    *) echo "unknown target '$target'" >&2; exit 2 ;;
esac

scratch=Fuzz/.build
# (SwiftPM builds only the last --target given, so one build per top module.)
tops="VisageVideo VisageNN"
[[ $target == service ]] && tops=VisageService
[[ $target == jpeg-shrink ]] && tops=VisageImage
for top in $tops; do
    swift build -c release --scratch-path "$scratch" --target "$top" \
        -Xswiftc -sanitize=fuzzer,address -Xcc -fsanitize=fuzzer-no-link,address >&2
done
products=$scratch/release
# Harnesses may use the package's `package` declarations: the same -package-name as its modules (SwiftPM
# names it after the checkout's directory).
package_name=$(grep '"-module-name","VisageImage"' "$scratch/release.yaml" | grep -o '"-package-name","[^"]*"' | head -1 | cut -d'"' -f4)
service_flags=() archives=()
if [[ $target == service ]]; then
    # Every module built into the scratch path (the service's, its packages', and any left from other
    # builds), each as a static archive: the linker takes only the objects the harness needs. C targets
    # need their module maps: generated ones beside their objects, or the package's own include/.
    libs=$scratch/service-libs
    rm -rf "$libs" && mkdir -p "$libs"
    for dir in "$products"/*.build; do
        module=$(basename "$dir" .build)
        case $module in visage|*Tests|*PackageTests|*-tool) continue ;; esac
        mapfile -t found < <(find "$dir" -name '*.o')
        (( ${#found[@]} )) || continue
        ar rcs "$libs/lib$module.a" "${found[@]}"
        archives+=(-Xlinker "$libs/lib$module.a")
        if [[ -f $dir/module.modulemap ]]; then
            service_flags+=(-Xcc "-fmodule-map-file=$dir/module.modulemap")
        else
            for map in "$scratch"/checkouts/*/Sources/"$module"/include/module.modulemap; do
                [[ -f $map ]] && service_flags+=(-Xcc "-fmodule-map-file=$map")
            done
        fi
    done
    # (swiftc orders -l flags apart from -Xlinker ones, so the group names the archives by path.)
    service_flags+=(-Xlinker --start-group "${archives[@]}" -Xlinker --end-group)
fi
objects=()
for module in $modules; do
    objects+=("$products/$module.build"/*.o)
done
binary=$scratch/fuzz-$harness
# (The service's archives are made afresh each run, so its harness is always relinked.)
if [[ ! -x $binary || $target == service || Fuzz/Targets/$harness.swift -nt $binary || -n $(find "${objects[@]}" -newer "$binary" 2>/dev/null | head -1) ]]; then
    swiftc -O -parse-as-library -sanitize=fuzzer,address -I "$products/Modules" ${package_name:+-package-name "$package_name"} \
        $(for module in $modules; do [[ -f $products/$module.build/module.modulemap ]] && echo "-Xcc -fmodule-map-file=$products/$module.build/module.modulemap"; done) \
        -Xcc -I -Xcc Sources/CJPEG/include -Xcc -I -Xcc Sources/CPNG/include -Xcc -I -Xcc Sources/CImageCodecs/include \
        -Xcc -I -Xcc Sources/CVisageKernels/include -Xcc -fmodule-map-file=Sources/CLibPNG/module.modulemap \
        -Xcc -fmodule-map-file=Sources/CLibJPEG/module.modulemap -Xcc -I/usr/include/libpng16 \
        "Fuzz/Targets/$harness.swift" "${objects[@]}" "${service_flags[@]}" -lpng16 -ljpeg -lz -ldl -o "$binary" 2> >(grep -v "Cannot export local symbol" >&2)
fi

corpus=Fuzz/.corpus/$target crashes=Fuzz/.crashes/$target
mkdir -p "$corpus" "$crashes"
# Inputs above 64 KB add little and slow each run; a run over 1 s is a finding; 2 GB of RSS is a finding.
# (Swift's own backtracer is off: its reader of the crashed stack trips AddressSanitizer over the report.)
SWIFT_BACKTRACE=enable=no ASAN_OPTIONS=detect_leaks=1:allocator_may_return_null=1 \
exec "$binary" "$corpus" "Fuzz/Seeds/$target" -max_total_time="$seconds" -max_len=65536 -timeout=1 -rss_limit_mb=2048 \
    -artifact_prefix="$crashes/" -print_final_stats=1 "$@"
