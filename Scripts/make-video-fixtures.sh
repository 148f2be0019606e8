#!/usr/bin/env bash
# Makes the video fixtures of Tests/VisageVideoTests/Fixtures with ffmpeg, and records what ffprobe
# reports about them, so the tests compare Visage's frames and times with ffprobe's without running it.
#
#   vfr.mp4           64×48 H.264 (with B-frames), variable frame rate, as a phone records it: segments at
#                     30, 10 and 24 fps, joined with ffmpeg's concat demuxer (stream copy, no re-timing).
#   vfr.ffprobe.json  ffprobe's frame count and every frame's pts_time for vfr.mp4.
#   rotated.mp4       the first 30 fps segment with a 90° display rotation (as a phone held upright).
#   audio-only.m4a    an AAC file with no video stream.
#
# Needs ffmpeg and ffprobe (Debian: apt-get install ffmpeg). Run from anywhere.
set -euo pipefail
out="$(cd "$(dirname "$0")/.." && pwd)/Tests/VisageVideoTests/Fixtures"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mkdir -p "$out"

ff() { ffmpeg -hide_banner -loglevel error -nostdin -y "$@"; }

# One segment: `count` frames of a moving test pattern at `rate` fps, 90 kHz track time scale, so every
# segment shares a time base and the concat demuxer can copy them.
segment() {
    local name=$1 rate=$2 count=$3 offset=$4
    ff -f lavfi -i "testsrc=size=64x48:rate=$rate,trim=start_frame=$offset" -frames:v "$count" \
        -c:v libx264 -preset veryfast -pix_fmt yuv420p -bf 2 -g 12 -video_track_timescale 90000 \
        -map_metadata -1 -fflags +bitexact -flags:v +bitexact "$work/$name.mp4"
}
segment a 30 12 0
segment b 10 8 12
segment c 24 12 20
printf "file '%s'\n" "$work/a.mp4" "$work/b.mp4" "$work/c.mp4" > "$work/list.txt"
ff -f concat -safe 0 -i "$work/list.txt" -c copy -map_metadata -1 -fflags +bitexact "$out/vfr.mp4"

ffprobe -v error -select_streams v:0 -count_frames \
    -show_entries stream=codec_name,width,height,r_frame_rate,avg_frame_rate,nb_read_frames,start_time:frame=pts_time \
    -of json "$out/vfr.mp4" > "$out/vfr.ffprobe.json"

# ffmpeg 5.1 writes a display matrix from the `rotate` tag; later versions spell it -display_rotation.
ff -i "$work/a.mp4" -c copy -metadata:s:v:0 rotate=90 -map_metadata -1 -fflags +bitexact "$out/rotated.mp4"

ff -f lavfi -i "sine=frequency=440:duration=0.5" -c:a aac -b:a 32k -map_metadata -1 -fflags +bitexact "$out/audio-only.m4a"

ls -l "$out"
