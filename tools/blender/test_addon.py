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
- Settings' stiffness by frequency reaches the model (its lowest mode is the one asked), and by
  sag runs `springmesh tune --sag`;
- a missing binary and a mesh without faces are messages, not tracebacks;
- Preview of a cape worn on a skinned, walking figure (the one tools/blender/hero.py builds)
  plays the CLI's frames, and its shoulders stay on Blender's own armature deformation of the
  cape (within 1 mm at every frame) as the figure walks away.
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
    frames, worst = plays_its_cache(preview)
    check(worst <= 1e-4, f"the preview plays the CLI's {len(frames)} frames within {worst:.2e} m")
    moved = max(abs(a[1] - b[1]) for a, b in zip(frames[0], frames[-1]))
    check(moved > 0.1, f"the flag swings down in the preview ({moved:.3f} m)")

    out = os.path.join(tempfile.mkdtemp(), "flag.spring")
    obj.hide_set(False)
    bpy.context.view_layer.objects.active = obj
    check(bpy.ops.springmesh.export(filepath=out) == {"FINISHED"}, "Export runs")
    info = json.loads(subprocess.run([springmesh, "info", out, "--json"], capture_output=True, text=True, check=True).stdout)
    check(info["anchors"] == len(top), f"the model's anchors are the {len(top)} painted vertices: {info['anchors']}")

    obj.springmesh.behaviour, obj.springmesh.frequency = "FREQUENCY", 1.5
    check(bpy.ops.springmesh.export(filepath=out) == {"FINISHED"}, "Export tuned by frequency runs")
    info = json.loads(subprocess.run([springmesh, "info", out, "--json"], capture_output=True, text=True, check=True).stdout)
    lowest = info["modes_hz"][0]
    check(abs(lowest - 1.5) < 0.05 * 1.5, f"the model's lowest mode is the 1.5 Hz asked: {lowest:.3f} Hz")
    # Hanging from one edge, the flag's sag is its swing, whatever its stiffness: tune says so.
    obj.springmesh.behaviour, obj.springmesh.sag = "SAG", 0.02
    try:
        bpy.ops.springmesh.export(filepath=out)
        failed = False
    except RuntimeError:
        failed = True
    status = obj.springmesh.status
    check(failed and "tune failed" in status, f"a sag no stiffness gives is a message: {status[:60]!r}...")
    # Held along both edges, a hammock, it sags as stiff as it is.
    bottom = [v.index for v in obj.data.vertices if v.co.y < -0.499]
    group.add(bottom, 1.0, "REPLACE")
    check(bpy.ops.springmesh.export(filepath=out) == {"FINISHED"}, "Export of the hammock tuned by sag runs")
    check("sag" in obj.springmesh.report, f"and reports tune's sag: {obj.springmesh.report.splitlines()[-1]!r}")
    group.remove(bottom)
    obj.springmesh.behaviour = "DEFAULT"

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
        render(os.path.join(images, "blender-preview.png"), 12, (1.3, -3.0, 1.9), (0.1, 0.0, 1.7))

    worn_cape(images)

    addon.unregister()
    check(not hasattr(bpy.types.Object, "springmesh"), "unregisters cleanly")


def plays_its_cache(preview):
    """The PC2 samples on `preview`'s Mesh Cache, and how far (m) the evaluated preview is
    from them at the worst vertex of the worst frame."""
    frames = read_pc2(bpy.path.abspath(preview.modifiers["Springmesh"].filepath))
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
    return frames, worst


def worn_cape(images):
    """Preview of the hero's cape worn on its walking body (tools/blender/hero.py's figure);
    with `images`, a render of it mid-walk."""
    import hero

    for o in list(bpy.data.objects):
        bpy.data.objects.remove(o)
    scene = bpy.context.scene
    scene.render.fps, scene.frame_start, scene.frame_end = hero.FPS, 0, hero.FRAMES
    rig = hero.armature()
    hero.body(rig)
    cape = hero.cape(rig)
    hero.walk(rig)
    scene.frame_set(0)
    bpy.context.view_layer.objects.active = cape
    cape.springmesh.body = "Body"
    cape.springmesh.seconds = hero.FRAMES / hero.FPS
    check(bpy.ops.springmesh.preview() == {"FINISHED"}, f"Preview of the worn cape runs: {cape.springmesh.status!r}")
    preview = bpy.data.objects["Cape (Springmesh preview)"]
    frames, worst = plays_its_cache(preview)
    check(worst <= 1e-4, f"the worn cape's preview plays the CLI's {len(frames)} frames within {worst:.2e} m")
    # The shoulders (max distance 0) against Blender's own deformation of the cape.
    shoulders = [v.index for v in cape.data.vertices if v.co.z > 1.549]
    off, walked, start = 0.0, 0.0, None
    for f in range(len(frames)):
        scene.frame_set(f)
        depsgraph = bpy.context.evaluated_depsgraph_get()
        skin = cape.evaluated_get(depsgraph)
        skin_mesh = skin.to_mesh()
        ev = preview.evaluated_get(depsgraph)
        drawn = [ev.matrix_world @ v.co for v in ev.data.vertices]
        for i in shoulders:
            at = skin.matrix_world @ skin_mesh.vertices[i].co
            off = max(off, min((at - p).length for p in drawn))
            if i == shoulders[0]:
                start = start or at.copy()
                walked = max(walked, (at - start).length)
        skin.to_mesh_clear()
    check(len(shoulders) == 11 and off <= 1e-3, f"its {len(shoulders)} shoulders stay within {off:.2e} m of Blender's own skinning of them")
    check(walked > 1.0, f"as the figure walks {walked:.2f} m")
    if images:
        cape.hide_render = True
        render(os.path.join(images, "blender-worn.png"), 30, (1.6, 2.2, 1.7), (0.0, -0.9, 1.1))


def render(path, frame, eye, target):
    """A Workbench render of the scene at `frame`, seen from `eye` looking at `target`."""
    from mathutils import Vector

    scene = bpy.context.scene
    scene.frame_set(frame)
    camera = bpy.data.objects.new("Camera", bpy.data.cameras.new("Camera"))
    scene.collection.objects.link(camera)
    camera.location = eye
    camera.rotation_euler = (Vector(target) - Vector(eye)).to_track_quat("-Z", "Y").to_euler()
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
