"""Tests of the Springmesh add-on with real Blender (the `bpy` module):

    python tools/blender/test_addon.py SPRINGMESH [IMAGES]

SPRINGMESH is the built `springmesh` tool; with IMAGES, rendered frames of previews are saved
there (docs/blender.md shows them). Exits 1 on the first failed check. Each check is against
Blender's own evaluation of the scene (its modifiers, its armature deformation) or against the
CLI's own files read byte by byte:

- the add-on installs from its zip (tools/blender/build_extension.py) with Blender's own
  Install from Disk, disables and enables again cleanly; Paint makes the vertex group that is
  exported as the attribute; a missing binary (the preference) and a mesh without faces are
  messages;
- Preview of a painted flag simulates the scene's frame range (frames 1–25 at 24 fps): its
  preview plays the CLI's point cache within 1e-4 m at every frame, sample k at frame 1 + k;
  the original is hidden in the viewport and in renders and stays the active object; Show
  original / Show preview / Clear preview do what they say;
- Export writes a model whose anchors are the painted vertices; Settings' stiffness by
  frequency and by sag reach it;
- a flag with Mirror and Subdivision modifiers is simulated with the vertex count the viewport
  shows, and an edit made in Edit Mode (not left) is in the preview;
- the Preview operator's modal steps: timer ticks report the progress, Esc cancels (the original
  shown, no preview object, no files of the run), and ticks to the end make the preview;
- the panel, drawn into a stand-in layout (`bpy` has no window), with a preview selected: the
  previewed object's settings, plain labels with units, tooltips that name the attributes, the
  scene's range, the counts of the conversion;
- a cape worn on the humanoid figure of tools/blender/figure.py (arms and legs), its armature
  object moved to (2, −1, 0.3), turned 60° and scaled 0.5, parented as figure.py does, as Ctrl+P
  does (with a parent inverse) and with an Armature-type parent, at 24, 25 and 30 fps: every
  kinematic vertex (painted 0) within 1e-4 m of Blender's own armature deformation at every
  frame of the scene's range; renamed, the body still gives the same colliders;
- saved, the .blend's preview refers to its cache by a relative path and plays it after the
  .blend and its folder are copied elsewhere and opened from there.
"""

import importlib
import json
import math
import os
import shutil
import struct
import subprocess
import sys
import tempfile
import time
from types import SimpleNamespace

# A Blender user folder of this run's own, where the extension is installed as an artist
# installs it (set before Blender starts).
os.environ["BLENDER_USER_RESOURCES"] = tempfile.mkdtemp(prefix="springmesh-blender-user-")

import bpy  # noqa: E402
from mathutils import Matrix, Vector  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))

# The add-on's module once Blender has installed it from its zip.
MODULE = "bl_ext.user_default.springmesh"


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


def flag(name="Flag", columns=10, rows=7):
    """A 1.6 × 1 m flag lying flat at z = 2, columns × rows vertices."""
    bpy.ops.mesh.primitive_grid_add(x_subdivisions=columns - 1, y_subdivisions=rows - 1, size=1.0)
    obj = bpy.context.object
    obj.name = name
    for v in obj.data.vertices:
        x, y, _ = v.co
        v.co = (x * 1.6, y, 2.0)
    return obj


def pin(obj, where):
    """Pins the vertices of `obj` where `where(co)` holds (the _PIN group, weight 1)."""
    group = obj.vertex_groups.get("_PIN") or obj.vertex_groups.new(name="_PIN")
    group.add([v.index for v in obj.data.vertices if where(v.co)], 1.0, "REPLACE")
    return group


def scene_range(first, last, fps):
    scene = bpy.context.scene
    scene.frame_start, scene.frame_end, scene.render.fps, scene.render.fps_base = first, last, fps, 1.0


def select(obj):
    obj.hide_set(False)
    bpy.context.view_layer.objects.active = obj


def main(springmesh, images):
    bpy.ops.wm.read_factory_settings(use_empty=True)
    sys.path.insert(0, HERE)
    import build_extension

    package = os.path.join(tempfile.mkdtemp(), "springmesh-blender.zip")
    build_extension.main(package)
    installed = bpy.ops.extensions.package_install_files(filepath=package, repo="user_default", enable_on_install=True)
    check(installed == {"FINISHED"} and MODULE in bpy.context.preferences.addons, "installs from its zip with Blender's own Install from Disk")
    bpy.ops.preferences.addon_disable(module=MODULE)
    check(not hasattr(bpy.types.Object, "springmesh"), "disables cleanly")
    bpy.ops.preferences.addon_enable(module=MODULE)
    check(hasattr(bpy.types.Object, "springmesh"), "and enables again")
    preferences = bpy.context.preferences.addons[MODULE].preferences

    obj = flag()
    bpy.ops.springmesh.paint(attribute="_PIN")
    group = obj.vertex_groups.get("_PIN")
    check(group is not None and obj.vertex_groups.active == group, "Paint makes the _PIN group active")
    bpy.ops.object.mode_set(mode="OBJECT")
    top = [v.index for v in obj.data.vertices if v.co.y > 0.499]
    pin(obj, lambda co: co.y > 0.499)

    preferences.binary = "/nonexistent/springmesh"
    check(fails(bpy.ops.springmesh.preview) and "not found" in obj.springmesh.status, f"a missing binary: {obj.springmesh.status!r}")
    preferences.binary = springmesh

    scene_range(1, 25, 24)
    # As the button does it (without a window, the run goes to its end at once).
    ran = bpy.ops.springmesh.preview("INVOKE_DEFAULT")
    check(ran == {"FINISHED"}, f"Preview runs: {obj.springmesh.status!r}")
    preview = obj.springmesh.preview
    check(preview is not None and preview.name == "Flag (Springmesh preview)", "the preview object is the flag's")
    frames, worst = plays_its_cache(preview)
    check(len(frames) == 25 and worst <= 1e-4, f"the preview plays the CLI's {len(frames)} frames (1–25) within {worst:.2e} m")
    moved = max(abs(a[1] - b[1]) for a, b in zip(frames[0], frames[-1]))
    check(moved > 0.1, f"the flag swings down in the preview ({moved:.3f} m)")
    active = bpy.context.view_layer.objects.active
    check(obj.hide_get() and obj.hide_render and not preview.hide_render and active == obj, "the original is hidden in the viewport and in renders, and stays active")
    check("frames 1–25" in obj.springmesh.status, f"the panel says what plays: {obj.springmesh.status!r}")
    bpy.ops.springmesh.show(what="ORIGINAL")
    check(not obj.hide_get() and not obj.hide_render and preview.hide_get() and preview.hide_render, "Show original")
    bpy.ops.springmesh.show(what="PREVIEW")
    check(obj.hide_get() and not preview.hide_get(), "Show preview")
    bpy.context.view_layer.objects.active = preview
    bpy.ops.springmesh.show(what="CLEAR")
    gone = "Flag (Springmesh preview)" not in bpy.data.objects
    check(gone and not obj.hide_get() and obj.springmesh.preview is None, "Clear preview, from the preview selected")

    out = os.path.join(tempfile.mkdtemp(), "flag.spring")
    select(obj)
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
    status = obj.springmesh.status if fails(bpy.ops.springmesh.export, filepath=out) else ""
    check("tune failed" in status, f"a sag no stiffness gives is a message: {status[:60]!r}...")
    # Held along both edges, a hammock, it sags as stiff as it is.
    bottom = pin(obj, lambda co: co.y < -0.499)
    check(bpy.ops.springmesh.export(filepath=out) == {"FINISHED"}, "Export of the hammock tuned by sag runs")
    check("sag" in obj.springmesh.report, f"and reports tune's sag: {obj.springmesh.report.splitlines()[-1]!r}")
    bottom.remove([v.index for v in obj.data.vertices if v.co.y < -0.499])
    obj.springmesh.behaviour = "DEFAULT"

    points = bpy.data.objects.new("Points", bpy.data.meshes.new("Points"))
    points.data.from_pydata([(0, 0, 0), (1, 0, 0)], [], [])
    bpy.context.scene.collection.objects.link(points)
    select(points)
    check(fails(bpy.ops.springmesh.export, filepath=out) and "no faces" in points.springmesh.status, f"a mesh without faces: {points.springmesh.status!r}")

    if images:
        select(obj)
        bpy.ops.springmesh.preview()
        render(os.path.join(images, "blender-preview.png"), 12, (1.3, -3.0, 1.9), (0.1, 0.0, 1.7))

    modifiers_and_edit_mode()
    modal_steps()
    worn_on_a_moved_rig(images)
    saved_and_moved()

    bpy.ops.preferences.addon_disable(module=MODULE)
    check(not hasattr(bpy.types.Object, "springmesh"), "disables cleanly at the end")


def empty():
    """An empty scene (the add-on stays registered, which factory settings would undo)."""
    for collection in (bpy.data.objects, bpy.data.meshes, bpy.data.armatures, bpy.data.actions):
        for item in list(collection):
            collection.remove(item)


def fails(operator, **args):
    """Whether the operator reports an error (Blender raises it as a RuntimeError)."""
    try:
        operator(**args)
    except RuntimeError:
        return True
    return False


def plays_its_cache(preview):
    """The PC2 samples on `preview`'s Mesh Cache, and how far (m) the evaluated preview is from
    them at the worst vertex of the worst frame of the scene's range (sample k at its frame
    first + k)."""
    scene = bpy.context.scene
    frames = read_pc2(bpy.path.abspath(preview.modifiers["Springmesh"].filepath))
    worst = 0.0
    for k, sample in enumerate(frames):
        scene.frame_set(scene.frame_start + k)
        verts = evaluated(preview)
        if len(verts) != len(sample):
            check(False, f"frame {scene.frame_start + k}: {len(verts)} vertices, the cache has {len(sample)}")
        for at, (x, y, z) in zip(verts, sample):
            # y up in the cache, z up in Blender.
            worst = max(worst, abs(at.x - x), abs(at.y + z), abs(at.z - y))
    return frames, worst


def evaluated(obj):
    """`obj`'s vertices as Blender evaluates them now (its modifiers applied), in world space."""
    ev = obj.evaluated_get(bpy.context.evaluated_depsgraph_get())
    mesh = ev.to_mesh()
    out = [ev.matrix_world @ v.co for v in mesh.vertices]
    ev.to_mesh_clear()
    return out


def modifiers_and_edit_mode():
    """A half flag with Mirror and Subdivision is simulated as the viewport shows it; an edit
    made in Edit Mode is in the preview without leaving Edit Mode."""
    import bmesh

    empty()
    half = flag("Half", 6, 5)
    for v in half.data.vertices:
        v.co.x = (v.co.x + 0.8) / 2.0  # x from 0 to 0.8: the right half
    pin(half, lambda co: co.y > 0.499)
    half.modifiers.new("Mirror", "MIRROR").use_mirror_merge = True
    half.modifiers.new("Subdivision", "SUBSURF").levels = 1
    scene_range(1, 13, 24)
    select(half)
    bpy.ops.object.mode_set(mode="EDIT")
    edit = bmesh.from_edit_mesh(half.data)
    edit.verts.ensure_lookup_table()
    corner = max(edit.verts, key=lambda v: (v.co.x, -v.co.y))
    corner.co.z += 0.3
    bmesh.update_edit_mesh(half.data)
    shown = evaluated(half)
    check(bpy.ops.springmesh.preview() == {"FINISHED"}, f"Preview of the half flag with Mirror and Subdivision runs in Edit Mode: {half.springmesh.status!r}")
    bpy.ops.object.mode_set(mode="OBJECT")
    preview = half.springmesh.preview
    frames, worst = plays_its_cache(preview)
    count = len(frames[0])
    check(count == len(shown) and count > 2 * 6 * 5, f"simulated with the {len(shown)} vertices the viewport shows: {count}")
    highest, raised = max(p[1] for p in frames[0]), max(p.z for p in shown)
    check(raised > 2.1 and abs(highest - raised) < 1e-4, f"the corner raised in Edit Mode is in the preview (highest {highest:.4f} m, the viewport's {raised:.4f} m)")


def modal_steps():
    """The Preview operator's modal steps, as Blender's window calls them: Esc cancels, timer
    ticks report the progress and, at the end, make the preview."""
    operators, preview = (importlib.import_module(f"{MODULE}.{m}") for m in ("operators", "preview"))

    empty()
    fine = flag("Fine", 40, 25)
    pin(fine, lambda co: co.y > 0.499)
    scene_range(1, 241, 24)
    select(fine)
    modal = operators.SPRINGMESH_OT_preview.modal
    reports = []
    op = SimpleNamespace(job=preview.Job(bpy.context, fine), timer=None, report=lambda kind, text: reports.append(text))
    ticked = modal(op, bpy.context, SimpleNamespace(type="TIMER"))
    check(ticked == {"RUNNING_MODAL"}, f"a timer tick of a long run goes on: {ticked}")
    folder = op.job.folder
    check(modal(op, bpy.context, SimpleNamespace(type="MOUSEMOVE")) == {"PASS_THROUGH"}, "other events pass through")
    cancelled = modal(op, bpy.context, SimpleNamespace(type="ESC"))
    nothing = fine.springmesh.preview is None and not any("preview" in o.name for o in bpy.data.objects)
    check(cancelled == {"CANCELLED"} and not fine.hide_get() and nothing, "Esc cancels: the original shown, no preview object")
    check(not os.path.exists(folder) and fine.springmesh.status == "preview cancelled", "and no files of the run")
    scene_range(1, 25, 24)
    op = SimpleNamespace(job=preview.Job(bpy.context, fine), timer=None, report=lambda kind, text: reports.append(text))
    seen, ended = [], None
    while ended is None:
        result = modal(op, bpy.context, SimpleNamespace(type="TIMER"))
        if result == {"RUNNING_MODAL"}:
            seen.append(op.job.step())
        else:
            ended = result
        time.sleep(0.01)
    ordered = all(0.0 <= a <= b <= 1.0 for a, b in zip(seen, seen[1:]))
    check(ended == {"FINISHED"} and fine.springmesh.preview is not None and ordered, f"ticks to the end make the preview ({len(seen)} ticks under way, progress never going back)")


def worn_figure(rig_matrix, parented):
    """The figure of tools/blender/figure.py with its cape and walk, its armature object at
    `rig_matrix`; the cape parented as figure.py does ("figure.py"), as Ctrl+P does after the
    armature was placed (a parent inverse: "Ctrl+P"), or with an Armature-type parent in place
    of its Armature modifier ("Armature parent", Blender's older skinning). Returns (cape,
    body)."""
    import figure

    empty()
    rig = figure.armature(rig_matrix)
    body = figure.body(rig)
    cape = figure.cape(rig)
    if parented != "figure.py":
        world = cape.matrix_world.copy()
        cape.parent = None
        cape.matrix_world = world
        cape.parent = rig
        cape.matrix_parent_inverse = rig.matrix_world.inverted()
    if parented == "Armature parent":
        cape.modifiers.remove(cape.modifiers["Armature"])
        cape.parent_type = "ARMATURE"
    figure.keyed(rig, "Walk", figure.walk_keys(), "LINEAR")
    select(cape)
    cape.springmesh.body = body
    return cape, body


def kinematic_off_skin(cape, preview):
    """How far (m) the preview's kinematic vertices (the cape's painted 0s) are from Blender's
    own armature deformation of them, at worst over the scene's range."""
    scene = bpy.context.scene
    painted = cape.data.attributes["_MAX_DISTANCE"].data
    pinned = [i for i, d in enumerate(painted) if d.value < 1e-3]
    scene.frame_set(scene.frame_start)
    skin, drawn = evaluated(cape), evaluated(preview)
    # Each kinematic vertex's vertex of the preview: the one at its place at the first frame.
    match = {i: min(range(len(drawn)), key=lambda k: (drawn[k] - skin[i]).length) for i in pinned}
    worst = 0.0
    for f in range(scene.frame_start, scene.frame_end + 1):
        scene.frame_set(f)
        skin, drawn = evaluated(cape), evaluated(preview)
        worst = max(worst, max((drawn[match[i]] - skin[i]).length for i in pinned))
    return len(pinned), worst


def worn_on_a_moved_rig(images):
    """A cape on a rig moved, turned and scaled, at 24 and 30 fps, parented both ways."""
    placed = Matrix.Translation((2.0, -1.0, 0.3)) @ Matrix.Rotation(math.radians(60.0), 4, "Z") @ Matrix.Scale(0.5, 4)
    for how, fps in (("figure.py", 24), ("Ctrl+P", 30), ("Armature parent", 25), ("figure.py", 30)):
        cape, body = worn_figure(placed, how)
        scene_range(1, 1 + round(2.0 * fps), fps)
        check(bpy.ops.springmesh.preview() == {"FINISHED"}, f"Preview of the worn cape ({how}, {fps} fps) runs: {cape.springmesh.status!r}")
        preview = cape.springmesh.preview
        frames, worst = plays_its_cache(preview)
        check(worst <= 1e-4, f"  its preview plays the CLI's {len(frames)} frames within {worst:.2e} m")
        count, off = kinematic_off_skin(cape, preview)
        check(count == 13 and off <= 1e-4, f"  its {count} kinematic vertices within {off:.2e} m of Blender's own skinning at every frame")
    panel_draws(cape)
    colliders = [line for line in cape.springmesh.report.splitlines() if "colliders" in line]
    body.name = "Renamed body"
    select(cape)
    check(bpy.ops.springmesh.preview() == {"FINISHED"}, "Preview after the body is renamed runs")
    again = [line for line in cape.springmesh.report.splitlines() if "colliders" in line]
    check(colliders and again == colliders and "character: 0" not in again[0], f"  the renamed body gives the same colliders: {again}")
    if images:
        # Seen from behind the walking figure's right shoulder, its back turned 60° with it.
        bpy.context.scene.frame_set(30)
        drawn = evaluated(cape.springmesh.preview)
        middle = sum(drawn, Vector()) / len(drawn)
        back, side = Vector((-0.866, 0.5, 0.0)), Vector((0.5, 0.866, 0.0))
        eye = middle + 1.5 * back - 0.9 * side + Vector((0.0, 0.0, 0.25))
        render(os.path.join(images, "blender-worn.png"), 30, eye, middle - Vector((0.0, 0.0, 0.1)))


class Layout:
    """A stand-in for Blender's UILayout that writes down what the panel draws (`bpy` has no
    window to draw it in): each label's text and icon, each field's property and label, each
    button's operator and label."""

    def __init__(self, drawn):
        self.drawn = drawn

    def box(self):
        return self

    def row(self, align=False):
        return self

    def label(self, text="", icon="NONE"):
        self.drawn.append(("label", text, icon))

    def prop(self, data, name, text=None):
        label = data.bl_rna.properties[name].name if text is None else text
        self.drawn.append(("field", name, label, data.bl_rna.properties[name].description))

    def operator(self, name, text=None, icon="NONE"):
        self.drawn.append(("button", name, text))
        return SimpleNamespace()


def panel_draws(cape):
    """The panel of the worn cape, drawn with its preview selected: the cape's settings, plain
    labels with units whose tooltips name the attributes, the scene's range, the Show buttons,
    the counts of the conversion."""
    panel = importlib.import_module(f"{MODULE}.panel")

    bpy.context.view_layer.objects.active = cape.springmesh.preview
    drawn = []
    panel.SPRINGMESH_PT_panel.draw(SimpleNamespace(layout=Layout(drawn)), bpy.context)
    labels = [d[2] if d[0] == "button" else d[1] for d in drawn if d[0] in ("label", "button")]
    fields = {d[1]: (d[2], d[3]) for d in drawn if d[0] == "field"}
    check(labels[0] == cape.name, f"with the preview selected, the panel is the cape's: {labels[0]!r}")
    for label in ("Pin", "Max distance", "Back-stop distance", "Back-stop radius", "Original", "Clear"):
        check(label in labels, f"  a button {label!r}")
    unit, tip = fields["scale_max_distance"]
    check(unit == "m" and "_MAX_DISTANCE" in tip, f"  max distance's field says m and its tooltip names _MAX_DISTANCE: {tip!r}")
    check(fields["body"][0] == "Worn on", "  the body is a field 'Worn on'")
    check(any("frames 1–61 at 30 fps" in str(l) for l in labels), "  the preview's frame range is shown")
    check(any("13 nodes follow the skin" in str(l) and "17 colliders" in str(l) for l in labels), "  the counts of the conversion are shown")
    bpy.context.view_layer.objects.active = cape


def saved_and_moved():
    """Saved, the preview's cache path is relative and plays from a copy of the folder."""
    folder = tempfile.mkdtemp()
    blend = os.path.join(folder, "scene", "scene.blend")
    os.makedirs(os.path.dirname(blend))
    empty()
    obj = flag("Saved")
    pin(obj, lambda co: co.y > 0.499)
    scene_range(1, 13, 24)
    bpy.ops.wm.save_as_mainfile(filepath=blend)
    select(obj)
    check(bpy.ops.springmesh.preview() == {"FINISHED"}, "Preview in a saved .blend runs")
    path = obj.springmesh.preview.modifiers["Springmesh"].filepath
    check(path.startswith("//springmesh_cache"), f"its cache path is relative to the .blend: {path}")
    bpy.ops.wm.save_mainfile()
    moved = os.path.join(folder, "elsewhere")
    shutil.copytree(os.path.dirname(blend), moved)
    shutil.rmtree(os.path.dirname(blend))
    os.chdir(tempfile.mkdtemp())
    bpy.ops.wm.open_mainfile(filepath=os.path.join(moved, "scene.blend"))
    preview = bpy.data.objects["Saved (Springmesh preview)"]
    frames, worst = plays_its_cache(preview)
    check(len(frames) == 13 and worst <= 1e-4, f"reopened from another folder, the preview plays its {len(frames)} frames within {worst:.2e} m")


def render(path, frame, eye, target):
    """A Workbench render of the scene at `frame`, seen from `eye` looking at `target`."""
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
