"""Tests of the Springmesh add-on with real Blender (the `bpy` module):

    python tools/blender/test_addon.py SPRINGMESH [IMAGES]

SPRINGMESH is the built `springmesh` tool; with IMAGES, a rendered frame of the preview is
saved there (docs/blender.md shows it). Exits 1 on the first failed check. Checked:

- the add-on registers, unregisters and registers again cleanly;
- the Paint operator makes the vertex group that is exported as the attribute;
- Preview of a painted flag puts a Mesh Cache on a preview object whose evaluated vertices are
  the CLI's own frames (the PC2 `springmesh simulate` wrote, read here byte by byte) within
  1e-4 m at every frame of the run;
- Export writes a model whose anchors are the painted vertices (`springmesh info --json`);
- a missing binary and a mesh without faces are messages, not tracebacks.
"""

import json
import os
import struct
import subprocess
import sys
import tempfile

import bpy

HERE = os.path.dirname(os.path.abspath(__file__))


def check(ok, what):
    print(("ok   " if ok else "FAIL ") + what)
    if not ok:
        sys.exit(1)


def read_pc2(path):
    """The samples of a PC2 file: a list of lists of (x, y, z) (y up)."""
    with open(path, "rb") as f:
        data = f.read()
    _, _, points, _, _, samples = struct.unpack("<12sii ffi", data[:32])
    values = struct.unpack(f"<{samples * points * 3}f", data[32 : 32 + samples * points * 12])
    return [
        [values[(s * points + p) * 3 : (s * points + p) * 3 + 3] for p in range(points)]
        for s in range(samples)
    ]


def flag():
    """A 1.6 × 1 m flag lying flat at z = 2, 10 × 7 vertices: pinned along its edge at
    y = 0.5, it swings down."""
    bpy.ops.mesh.primitive_grid_add(x_subdivisions=9, y_subdivisions=6, size=1.0)
    obj = bpy.context.object
    obj.name = "Flag"
    for v in obj.data.vertices:
        x, y, _ = v.co
        v.co = (x * 1.6, y, 2.0)
    return obj


def main(springmesh, images):
    bpy.ops.wm.read_factory_settings(use_empty=True)
    sys.path.insert(0, HERE)
    import springmesh as addon

    addon.register()
    addon.unregister()
    addon.register()
    check(hasattr(bpy.types.Object, "springmesh"), "registers, unregisters and registers again")

    obj = flag()
    bpy.ops.springmesh.paint(attribute="_PIN")
    group = obj.vertex_groups.get("_PIN")
    check(group is not None and obj.vertex_groups.active == group, "Paint makes the _PIN group active")
    top = [v.index for v in obj.data.vertices if v.co.y > 0.499]
    group.add(top, 1.0, "REPLACE")
    bpy.ops.object.mode_set(mode="OBJECT")

    os.environ["SPRINGMESH"] = "/nonexistent/springmesh"
    try:
        bpy.ops.springmesh.preview()
        failed = False
    except RuntimeError:
        failed = True
    check(failed and "not found" in obj.springmesh.status, f"a missing binary: {obj.springmesh.status!r}")
    os.environ["SPRINGMESH"] = springmesh

    obj.springmesh.seconds = 1.0
    bpy.context.scene.render.fps = 24
    check(bpy.ops.springmesh.preview() == {"FINISHED"}, f"Preview runs: {obj.springmesh.status!r}")
    preview = bpy.data.objects["Flag (Springmesh preview)"]
    cache = preview.modifiers["Springmesh"]
    frames = read_pc2(bpy.path.abspath(cache.filepath))
    worst = 0.0
    for f, sample in enumerate(frames):
        bpy.context.scene.frame_set(f)
        ev = preview.evaluated_get(bpy.context.evaluated_depsgraph_get())
        verts = ev.data.vertices
        if len(verts) != len(sample):
            check(False, f"frame {f}: {len(verts)} vertices, the cache has {len(sample)}")
        for v, (x, y, z) in zip(verts, sample):
            at = ev.matrix_world @ v.co
            # y up in the cache, z up in Blender.
            worst = max(worst, abs(at.x - x), abs(at.y + z), abs(at.z - y))
    check(worst <= 1e-4, f"the preview plays the CLI's {len(frames)} frames within {worst:.2e} m")
    moved = max(abs(a[1] - b[1]) for a, b in zip(frames[0], frames[-1]))
    check(moved > 0.1, f"the flag swings down in the preview ({moved:.3f} m)")

    out = os.path.join(tempfile.mkdtemp(), "flag.spring")
    obj.hide_set(False)
    bpy.context.view_layer.objects.active = obj
    check(bpy.ops.springmesh.export(filepath=out) == {"FINISHED"}, "Export runs")
    info = json.loads(subprocess.run([springmesh, "info", out, "--json"], capture_output=True, text=True, check=True).stdout)
    check(info["anchors"] == len(top), f"the model's anchors are the {len(top)} painted vertices: {info['anchors']}")

    points = bpy.data.objects.new("Points", bpy.data.meshes.new("Points"))
    points.data.from_pydata([(0, 0, 0), (1, 0, 0)], [], [])
    bpy.context.scene.collection.objects.link(points)
    bpy.context.view_layer.objects.active = points
    try:
        bpy.ops.springmesh.export(filepath=out)
        failed = False
    except RuntimeError:
        failed = True
    check(failed and "no faces" in points.springmesh.status, f"a mesh without faces: {points.springmesh.status!r}")

    if images:
        obj.hide_render = True
        render(preview, os.path.join(images, "blender-preview.png"))

    addon.unregister()
    check(not hasattr(bpy.types.Object, "springmesh"), "unregisters cleanly")


def render(preview, path):
    """A Workbench render of the preview at its last frame, from the front."""
    scene = bpy.context.scene
    scene.frame_set(int(preview.modifiers["Springmesh"].frame_start) + 12)
    camera = bpy.data.objects.new("Camera", bpy.data.cameras.new("Camera"))
    scene.collection.objects.link(camera)
    camera.location = (1.3, -3.0, 1.9)
    camera.rotation_euler = (1.4, 0.0, 0.42)
    scene.camera = camera
    scene.render.engine = "BLENDER_WORKBENCH"
    scene.render.resolution_x, scene.render.resolution_y = 800, 600
    scene.render.filepath = path
    try:
        bpy.ops.render.render(write_still=True)
        print(f"ok   rendered {path}")
    except RuntimeError as e:
        print(f"skip rendering {path}: {e}")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2] if len(sys.argv) > 2 else None)
