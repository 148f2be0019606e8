#!/usr/bin/env python3
"""A folder of sample images for the batch scripts: the bundled samples and the face fixtures, copied
under nested folders (as a photo library is), one unreadable file (an error record), and JPEG copies made
with Pillow. Prints the folder's path.

    python3 Scripts/make-batch-folder.py [DIR] [--copies 3]
"""
import argparse
import os
import shutil
import tempfile

from PIL import Image

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SOURCES = [os.path.join(ROOT, "Samples", name) for name in sorted(os.listdir(os.path.join(ROOT, "Samples")))
           if name.lower().endswith((".png", ".jpg", ".jpeg"))]
SOURCES += [os.path.join(ROOT, "Tests", "VisageTests", "Fixtures", name) for name in ("one-face.jpg", "two-faces.png", "no-face.png")]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("folder", nargs="?")
    parser.add_argument("--copies", type=int, default=3)
    args = parser.parse_args()
    folder = args.folder or tempfile.mkdtemp(prefix="visage-batch-")
    for copy in range(args.copies):
        for index, source in enumerate(SOURCES):
            target = os.path.join(folder, f"set-{copy}", "jpeg" if index % 2 else "png")
            os.makedirs(target, exist_ok=True)
            stem = os.path.splitext(os.path.basename(source))[0]
            if index % 2:
                Image.open(source).convert("RGB").save(os.path.join(target, f"{stem}.jpg"), quality=90)
            else:
                shutil.copy(source, os.path.join(target, os.path.basename(source)))
    with open(os.path.join(folder, "set-0", "unreadable.jpg"), "wb") as f:
        f.write(b"\xff\xd8\xff\xe0 this is not a JPEG")
    print(folder)


if __name__ == "__main__":
    main()
