"""Builds the Springmesh add-on as a Blender extension zip (Blender 4.2+: Edit › Preferences ›
Get Extensions › Install from Disk):

    python3 tools/blender/build_extension.py [OUT.zip]

(default `target/springmesh-blender.zip`). The zip holds `tools/blender/springmesh/` with its
`blender_manifest.toml` at the top, as Blender's own `blender --command extension build`
packs it.
"""

import os
import sys
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = os.path.join(HERE, "springmesh")


def main(out):
    os.makedirs(os.path.dirname(os.path.abspath(out)), exist_ok=True)
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
        for name in sorted(os.listdir(SOURCE)):
            if name.endswith((".py", ".toml")):
                z.write(os.path.join(SOURCE, name), name)
    print(f"wrote {out}")


if __name__ == "__main__":
    root = os.path.dirname(os.path.dirname(HERE))
    main(sys.argv[1] if len(sys.argv) > 1 else os.path.join(root, "target", "springmesh-blender.zip"))
