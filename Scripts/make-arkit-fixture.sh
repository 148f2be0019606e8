#!/bin/sh
# Makes Tests/VisageARKitTests/Fixtures/blink.y4m with ffmpeg: four 176×176 frames at 10 fps of the
# astronaut's face from the landmark fixtures, eyes open, painted shut, shut, open (4:2:0, BT.601,
# the layout VisageVideo's Y4MFrameSource reads), and blink-mirrored.y4m, the same frames flipped
# left to right, as a selfie preview shows them.
set -eu
cd "$(dirname "$0")/.."
photos=Tests/VisageTests/Fixtures/landmarks
out=Tests/VisageARKitTests/Fixtures
mkdir -p "$out"
crop="crop=250:250:160:50,scale=176:176:flags=area,format=yuv420p"
for mirror in "" ",hflip"; do
    name=blink; [ -n "$mirror" ] && name=blink-mirrored
    ffmpeg -v error -y \
        -loop 1 -t 0.1 -r 10 -i "$photos/astronaut.jpg" \
        -loop 1 -t 0.2 -r 10 -i "$photos/astronaut-eyes-closed.jpg" \
        -loop 1 -t 0.1 -r 10 -i "$photos/astronaut.jpg" \
        -filter_complex "[0:v]${crop}${mirror}[a];[1:v]${crop}${mirror}[b];[2:v]${crop}${mirror}[c];[a][b][c]concat=n=3:v=1[v]" \
        -map "[v]" -r 10 -frames:v 4 -pix_fmt yuv420p -color_range tv -f yuv4mpegpipe -strict -1 "$out/$name.y4m"
done
ls -l "$out"
