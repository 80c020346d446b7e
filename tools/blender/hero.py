"""Authors the rigged, skinned, painted, animated figure `assets/characters/hero.glb` with
Blender itself, as an artist would, and Blender's own deformation of it as the truth the tests
judge the cape against.

Run with Blender's Python module (`pip install bpy==5.0.1` in a venv):

    python tools/blender/hero.py assets/characters

It writes, into that folder:
- `hero.glb`: an armature (Hips, Spine, Chest, Head) with a walking clip "Walk"; a skinned
  "Body" (a capsule-like torso) and a skinned "Cape" hanging behind it, with a painted point
  attribute `_MAX_DISTANCE` (0 along the shoulders, growing to the hem); exported as glTF
  binary with Attributes on, Y up.
- `hero_cape.pc2`, `hero_body.pc2`: Blender's armature deformation of the Cape and the Body at
  every frame of the clip (30 per second), in glTF's Y-up world coordinates, vertices in
  Blender's order. Frame 0 is the rest pose.
"""

import math
import sys
from pathlib import Path

import bpy
from caches import deformed, write_pc2
from mathutils import Matrix, Vector

FPS = 30
FRAMES = 75  # 2.5 s: walk 1.2 m, stop, turn a quarter, stand.


def clear_scene():
    bpy.ops.wm.read_factory_settings(use_empty=True)
    scene = bpy.context.scene
    scene.render.fps = FPS
    scene.frame_start = 0
    scene.frame_end = FRAMES


def armature():
    data = bpy.data.armatures.new("Armature")
    rig = bpy.data.objects.new("Armature", data)
    bpy.context.scene.collection.objects.link(rig)
    bpy.context.view_layer.objects.active = rig
    bpy.ops.object.mode_set(mode="EDIT")
    chain = [("Hips", 0.9, 1.1), ("Spine", 1.1, 1.35), ("Chest", 1.35, 1.6), ("Head", 1.6, 1.8)]
    parent = None
    for name, low, high in chain:
        bone = data.edit_bones.new(name)
        bone.head, bone.tail = (0.0, 0.0, low), (0.0, 0.0, high)
        if parent is not None:
            bone.parent, bone.use_connect = parent, True
        parent = bone
    bpy.ops.object.mode_set(mode="OBJECT")
    return rig


def weights_by_height(z):
    """Hips below 1.1 m, Spine to 1.35 m, Chest above, blended over 10 cm at each joint."""
    out = {}
    for name, centre_low, centre_high in [("Hips", -9.0, 1.1), ("Spine", 1.1, 1.35), ("Chest", 1.35, 9.0)]:
        low = min(max((z - (centre_low - 0.05)) / 0.1, 0.0), 1.0)
        high = min(max(((centre_high + 0.05) - z) / 0.1, 0.0), 1.0)
        w = min(low, high)
        if w > 0.0:
            out[name] = w
    total = sum(out.values())
    return {k: v / total for k, v in out.items()}


def skinned(name, vertices, faces, rig, weights):
    mesh = bpy.data.meshes.new(name)
    mesh.from_pydata(vertices, [], faces)
    mesh.update()
    obj = bpy.data.objects.new(name, mesh)
    bpy.context.scene.collection.objects.link(obj)
    for bone in ("Hips", "Spine", "Chest", "Head"):
        obj.vertex_groups.new(name=bone)
    for i, v in enumerate(vertices):
        for bone, w in weights(v).items():
            obj.vertex_groups[bone].add([i], w, "REPLACE")
    obj.parent = rig
    modifier = obj.modifiers.new("Armature", "ARMATURE")
    modifier.object = rig
    return obj


def body(rig):
    """A torso: a cylinder of radius 0.18 m from 0.8 to 1.6 m, closed by fans, 16 around."""
    around, rings = 16, 9
    vertices, faces = [], []
    for r in range(rings):
        z = 0.8 + 0.8 * r / (rings - 1)
        for k in range(around):
            a = 2.0 * math.pi * k / around
            vertices.append((0.18 * math.cos(a), 0.18 * math.sin(a), z))
    for r in range(rings - 1):
        for k in range(around):
            a, b = r * around + k, r * around + (k + 1) % around
            faces.append((a, b, b + around, a + around))
    bottom, top = len(vertices), len(vertices) + 1
    vertices += [(0.0, 0.0, 0.8), (0.0, 0.0, 1.6)]
    for k in range(around):
        faces.append((bottom, (k + 1) % around, k))
        top_ring = (rings - 1) * around
        faces.append((top, top_ring + k, top_ring + (k + 1) % around))
    return skinned("Body", vertices, faces, rig, lambda v: weights_by_height(v[2]))


def cape(rig):
    """A cape 0.5 m wide hanging 0.8 m from the shoulders, 4 cm behind the torso (+y is the
    figure's back), 11 × 17 vertices; painted `_MAX_DISTANCE`: 0 along the shoulders, then
    0.4 m per metre down (0.32 m at the hem)."""
    columns, rows = 11, 17
    top, height, width, behind = 1.55, 0.8, 0.5, 0.22
    vertices, faces = [], []
    for j in range(rows):
        for i in range(columns):
            vertices.append((-width / 2 + width * i / (columns - 1), behind, top - height * j / (rows - 1)))
    for j in range(rows - 1):
        for i in range(columns - 1):
            a = j * columns + i
            faces.append((a, a + columns, a + columns + 1, a + 1))
    obj = skinned("Cape", vertices, faces, rig, lambda v: weights_by_height(v[2]))
    attribute = obj.data.attributes.new("_MAX_DISTANCE", "FLOAT", "POINT")
    for k, v in enumerate(vertices):
        attribute.data[k].value = 0.0 if k < columns else round(0.4 * (top - v[2]), 4)
    return obj


def walk(rig):
    """Walk 1.2 m forward (−y in Blender, the figure's front) in 1.2 s with the chest swaying,
    stop, turn 90° to the left between 1.4 and 1.8 s, and stand."""
    rig.animation_data_create()
    action = bpy.data.actions.new("Walk")
    rig.animation_data.action = action
    hips, chest = rig.pose.bones["Hips"], rig.pose.bones["Chest"]
    for bone in (hips, chest):
        bone.rotation_mode = "XYZ"
    # A vertical bone's own axes: x = world x, y = world z (along the bone), z = world −y.
    keys = [(0.0, 0.0, 0.0, 0.0), (1.2, 1.2, 0.0, 0.10), (1.4, 1.2, 0.0, 0.0), (1.8, 1.2, 90.0, 0.0), (2.5, 1.2, 90.0, 0.0)]
    for t, forward, turn, sway in keys:
        frame = round(t * FPS)
        hips.location = (0.0, 0.0, forward)
        hips.rotation_euler = (0.0, math.radians(turn), 0.0)
        hips.keyframe_insert("location", frame=frame)
        hips.keyframe_insert("rotation_euler", frame=frame)
    for k in range(0, 37, 6):
        chest.rotation_euler = (0.0, math.radians(8.0 * math.sin(k / 36 * 2 * math.pi * 2)), 0.0)
        chest.keyframe_insert("rotation_euler", frame=k)


def main(folder):
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    clear_scene()
    rig = armature()
    objects = [body(rig), cape(rig)]
    walk(rig)
    bpy.context.scene.frame_set(0)
    bpy.ops.export_scene.gltf(
        filepath=str(folder / "hero.glb"),
        export_format="GLB",
        export_attributes=True,
        export_skins=True,
        export_animations=True,
        export_yup=True,
        export_apply=False,
        export_materials="NONE",
    )
    for name, frames in deformed(objects, range(FRAMES + 1)).items():
        write_pc2(folder / f"hero_{name.lower()}.pc2", frames)


if __name__ == "__main__":
    main(sys.argv[-1])
