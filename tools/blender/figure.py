"""Authors a humanoid figure with arms and legs, made and exported by Blender itself as a game's
character would be, and Blender's own deformation of it as the truth the tests judge its cloth
against.

Run with Blender's Python module (`pip install bpy==5.0.1` in a venv):

    python tools/blender/figure.py assets/characters

The figure: an armature of 14 bones (Hips, Spine, Chest, Neck, Head, UpperArm/LowerArm and
UpperLeg/LowerLeg, .L and .R) in human proportions (1.75 m), its object moved to (1.5, −0.8, 0)
and turned 30° about Z in the scene; a body made as game characters are blocked out (a Skin
modifier over the skeleton's graph, then a Subdivision Surface, applied: one closed quad
mesh), skinned to the bones with at most four weights a vertex; three worn meshes, each with
a painted point attribute `_MAX_DISTANCE` (metres):
- `Cape`: hanging from the shoulders down the back, 0 along its top row (written 2.5e-8, the
  float noise a painted 0 picks up), growing to 0.35 m at the hem;
- `Skirt`: a tube from the waist to the knees, flaring, on the Hips, 0 around the waistband
  (written 1e-8), 0.5 m at the hem: what the dancer's high kick lifts it by (painted 0.3 or
  0.45 m, the max distances hold the front rows where the kicking thigh goes: see
  `crates/convert/tests/worn_figure.rs`);
- `Scarf`: a strip from the neck down the chest, 0 along its top (written 0), 0.25 m at its end.

Three files, the scene at 24 fps (Blender's default), frame 1 the first frame:
- `walker.glb`: the clip "Walk" (1.5 s walking at 1.4 m/s, breaking into a 4 m/s run for a
  second, stopping dead, turning 180° in 0.4 s, standing), sampled (LINEAR keys);
- `dancer.glb`: the clips "Kick" (legs apart by ±40°, a high kick of the right leg forward to
  95°, then a jump of 0.35 m with the legs apart) and "Leap" (the same without the high
  kick), exported with their Bézier keys as CUBICSPLINE;
- `runner.glb`: the same figure scaled to 0.92 (1.61 m), its object at (−2, 3.5, 0.2) and
  turned −135°, in long garments only (a 15 × 28 cape down 1.1 m to the shins, its hem's max
  distance 0.45 m, and a 6 × 22 scarf 1 m long), on a harder "Walk": a 4.5 m/s run with the
  thighs swinging ±55°, then a turn of 180° to the right in 0.3 s.

And for each clip, Blender's armature deformation of every mesh at every frame of it, as
`<file>_<clip>_<mesh>.pc2` (Y up, as glTF), vertices in Blender's order, frame k of the cache
at ((k + 1) / 24) s of the clip (frame 1 is at 1/24 s).
"""

import math
import sys
from pathlib import Path

import bpy
from caches import deformed, write_pc2
from mathutils import Matrix, Vector

FPS = 24

# Bones: name, head, tail, parent (Blender's Z up; the figure faces −Y).
BONES = [
    ("Hips", (0.0, 0.0, 0.95), (0.0, 0.0, 1.06), None),
    ("Spine", (0.0, 0.0, 1.06), (0.0, 0.0, 1.25), "Hips"),
    ("Chest", (0.0, 0.0, 1.25), (0.0, 0.0, 1.45), "Spine"),
    ("Neck", (0.0, 0.0, 1.45), (0.0, 0.0, 1.56), "Chest"),
    ("Head", (0.0, 0.0, 1.56), (0.0, 0.0, 1.76), "Neck"),
    ("UpperArm.L", (0.19, 0.0, 1.41), (0.37, 0.0, 1.17), "Chest"),
    ("LowerArm.L", (0.37, 0.0, 1.17), (0.50, 0.0, 0.94), "UpperArm.L"),
    ("UpperArm.R", (-0.19, 0.0, 1.41), (-0.37, 0.0, 1.17), "Chest"),
    ("LowerArm.R", (-0.37, 0.0, 1.17), (-0.50, 0.0, 0.94), "UpperArm.R"),
    ("UpperLeg.L", (0.10, 0.0, 0.93), (0.10, 0.0, 0.51), "Hips"),
    ("LowerLeg.L", (0.10, 0.0, 0.51), (0.10, 0.0, 0.08), "UpperLeg.L"),
    ("UpperLeg.R", (-0.10, 0.0, 0.93), (-0.10, 0.0, 0.51), "Hips"),
    ("LowerLeg.R", (-0.10, 0.0, 0.51), (-0.10, 0.0, 0.08), "UpperLeg.R"),
]

# The body's graph for the Skin modifier: point, radii (across x, across y).
SKIN = {
    "pelvis": ((0.0, 0.0, 0.93), (0.15, 0.11)),
    "waist": ((0.0, 0.0, 1.10), (0.13, 0.095)),
    "chest": ((0.0, 0.0, 1.32), (0.16, 0.11)),
    "neck": ((0.0, 0.0, 1.50), (0.05, 0.05)),
    "head": ((0.0, 0.0, 1.64), (0.085, 0.095)),
    "crown": ((0.0, 0.0, 1.74), (0.06, 0.07)),
    "shoulder.L": ((0.17, 0.0, 1.42), (0.055, 0.055)),
    "elbow.L": ((0.37, 0.0, 1.17), (0.042, 0.042)),
    "wrist.L": ((0.50, 0.0, 0.94), (0.032, 0.032)),
    "shoulder.R": ((-0.17, 0.0, 1.42), (0.055, 0.055)),
    "elbow.R": ((-0.37, 0.0, 1.17), (0.042, 0.042)),
    "wrist.R": ((-0.50, 0.0, 0.94), (0.032, 0.032)),
    "hip.L": ((0.10, 0.0, 0.88), (0.085, 0.085)),
    "knee.L": ((0.10, 0.0, 0.51), (0.055, 0.055)),
    "ankle.L": ((0.10, 0.0, 0.08), (0.04, 0.04)),
    "hip.R": ((-0.10, 0.0, 0.88), (0.085, 0.085)),
    "knee.R": ((-0.10, 0.0, 0.51), (0.055, 0.055)),
    "ankle.R": ((-0.10, 0.0, 0.08), (0.04, 0.04)),
}
SKIN_EDGES = [
    ("pelvis", "waist"), ("waist", "chest"), ("chest", "neck"), ("neck", "head"), ("head", "crown"),
    ("chest", "shoulder.L"), ("shoulder.L", "elbow.L"), ("elbow.L", "wrist.L"),
    ("chest", "shoulder.R"), ("shoulder.R", "elbow.R"), ("elbow.R", "wrist.R"),
    ("pelvis", "hip.L"), ("hip.L", "knee.L"), ("knee.L", "ankle.L"),
    ("pelvis", "hip.R"), ("hip.R", "knee.R"), ("knee.R", "ankle.R"),
]

# Where each figure's armature object stands in its scene.
PLACE = Matrix.Translation((1.5, -0.8, 0.0)) @ Matrix.Rotation(math.radians(30.0), 4, "Z")
RUNNER_PLACE = (
    Matrix.Translation((-2.0, 3.5, 0.2)) @ Matrix.Rotation(math.radians(-135.0), 4, "Z") @ Matrix.Scale(0.92, 4)
)


def clear_scene():
    bpy.ops.wm.read_factory_settings(use_empty=True)
    scene = bpy.context.scene
    scene.render.fps = FPS
    scene.frame_start = 1


def armature(place):
    data = bpy.data.armatures.new("Armature")
    rig = bpy.data.objects.new("Armature", data)
    bpy.context.scene.collection.objects.link(rig)
    bpy.context.view_layer.objects.active = rig
    bpy.ops.object.mode_set(mode="EDIT")
    for name, head, tail, parent in BONES:
        bone = data.edit_bones.new(name)
        bone.head, bone.tail = head, tail
        if parent is not None:
            bone.parent = data.edit_bones[parent]
            bone.use_connect = Vector(head) == data.edit_bones[parent].tail
    bpy.ops.object.mode_set(mode="OBJECT")
    rig.matrix_world = place
    return rig


def segment_distance(p, a, b):
    """Distance from p to the segment a–b, and where along it (0 at a, 1 at b)."""
    ab = b - a
    t = max(0.0, min(1.0, (p - a).dot(ab) / ab.dot(ab)))
    return (p - (a + ab * t)).length, t


def bone_weights(p, allowed=None):
    """Weights of a rest point p (the armature's own space): the nearest bone, blended with its
    parent near its head and with its nearest child near its tail, over 15% of its length;
    `allowed` limits the bones."""
    p = Vector(p)
    names = [b[0] for b in BONES if allowed is None or b[0] in allowed]
    spans = {b[0]: (Vector(b[1]), Vector(b[2]), b[3]) for b in BONES}
    near, t = None, 0.0
    best = math.inf
    for name in names:
        d, along = segment_distance(p, spans[name][0], spans[name][1])
        if d < best:
            best, near, t = d, name, along
    out = {near: 1.0}
    parent = spans[near][2]
    children = [n for n in names if spans[n][2] == near]
    if t < 0.15 and parent in names:
        out[parent] = 0.5 * (1.0 - t / 0.15)
    elif t > 0.85 and children:
        child = min(children, key=lambda c: segment_distance(p, spans[c][0], spans[c][1])[0])
        out[child] = 0.5 * (t - 0.85) / 0.15
    total = sum(out.values())
    return {k: v / total for k, v in out.items()}


def skinned(obj, rig, weights):
    for name, *_ in BONES:
        obj.vertex_groups.new(name=name)
    for v in obj.data.vertices:
        for bone, w in weights(v.co).items():
            obj.vertex_groups[bone].add([v.index], w, "REPLACE")
    obj.parent = rig
    obj.matrix_parent_inverse = Matrix.Identity(4)
    modifier = obj.modifiers.new("Armature", "ARMATURE")
    modifier.object = rig
    return obj


def apply_modifiers(obj):
    bpy.context.view_layer.objects.active = obj
    for modifier in list(obj.modifiers):
        bpy.ops.object.modifier_apply(modifier=modifier.name)


def body(rig):
    names = list(SKIN)
    mesh = bpy.data.meshes.new("Body")
    mesh.from_pydata([SKIN[n][0] for n in names], [(names.index(a), names.index(b)) for a, b in SKIN_EDGES], [])
    obj = bpy.data.objects.new("Body", mesh)
    bpy.context.scene.collection.objects.link(obj)
    obj.modifiers.new("Skin", "SKIN")
    for i, n in enumerate(names):
        obj.data.skin_vertices[0].data[i].radius = SKIN[n][1]
        obj.data.skin_vertices[0].data[i].use_root = n == "pelvis"
    subdivision = obj.modifiers.new("Subdivision", "SUBSURF")
    subdivision.levels = 1
    apply_modifiers(obj)
    return skinned(obj, rig, bone_weights)


def grid(name, points, columns, rows, closed=False):
    """A mesh of rows × columns points (row by row), quads between them; `closed` joins the
    last column to the first (a tube)."""
    mesh = bpy.data.meshes.new(name)
    faces = []
    span = columns if closed else columns - 1
    for j in range(rows - 1):
        for i in range(span):
            a, b = j * columns + i, j * columns + (i + 1) % columns
            faces.append((a, a + columns, b + columns, b))
    mesh.from_pydata(points, [], faces)
    mesh.update()
    obj = bpy.data.objects.new(name, mesh)
    bpy.context.scene.collection.objects.link(obj)
    return obj


def paint(obj, values):
    attribute = obj.data.attributes.new("_MAX_DISTANCE", "FLOAT", "POINT")
    for k, value in enumerate(values):
        attribute.data[k].value = value


def cape(rig, columns=13, rows=18, height=0.85, width=0.46, hem=0.35):
    """`width` m wide (0.46), from the shoulders (1.43 m) down `height` m (0.85), 3 cm behind
    the back, curving round the shoulders; `columns` × `rows` points (13 × 18), max distance
    growing to `hem` m (0.35)."""
    top = 1.43
    points = []
    for j in range(rows):
        z = top - height * j / (rows - 1)
        for i in range(columns):
            x = -width / 2 + width * i / (columns - 1)
            behind = 0.145 + 0.05 * (2 * x / width) ** 2 * (1.0 - j / (rows - 1)) + 0.02 * j / (rows - 1)
            points.append((x, behind, z))
    obj = grid("Cape", points, columns, rows)
    paint(obj, [2.5e-8 if k < columns else hem * (k // columns) / (rows - 1) for k in range(len(points))])
    return skinned(obj, rig, lambda p: bone_weights(p, {"Chest", "Spine", "Hips"}))


def skirt(rig):
    """A tube from the waist (1.0 m, radius 0.16 × 0.125) to above the knees (0.58 m, radius
    0.30), 28 around, 12 down, all on the Hips; max distance 0 at the waistband to 0.5 m at the
    hem."""
    around, rows, top, bottom = 28, 12, 1.0, 0.58
    points = []
    for j in range(rows):
        s = j / (rows - 1)
        z = top + (bottom - top) * s
        rx, ry = 0.16 + 0.14 * s, 0.125 + 0.175 * s
        for i in range(around):
            a = 2.0 * math.pi * i / around
            points.append((rx * math.cos(a), ry * math.sin(a), z))
    obj = grid("Skirt", points, around, rows, closed=True)
    paint(obj, [1e-8 if k < around else 0.5 * (k // around) / (rows - 1) for k in range(len(points))])
    return skinned(obj, rig, lambda p: {"Hips": 1.0})


def scarf(rig, columns=5, rows=15, length=0.7, width=0.14):
    """A strip `width` m wide (0.14) hanging from the left of the neck (1.48 m) down the chest
    `length` m (0.7), 2 cm in front of it; `columns` × `rows` points (5 × 15)."""
    top = 1.48
    points = []
    for j in range(rows):
        z = top - length * j / (rows - 1)
        front = -(0.07 + min(0.06, 0.5 * (top - z))) - 0.02
        for i in range(columns):
            points.append((0.03 + width * i / (columns - 1), front, z))
    obj = grid("Scarf", points, columns, rows)
    paint(obj, [0.0 if k < columns else 0.25 * (k // columns) / (rows - 1) for k in range(len(points))])
    return skinned(obj, rig, lambda p: bone_weights(p, {"Neck", "Chest"}))


def keyed(rig, name, keys, interpolation):
    """An action `name` on `rig`: keys[t] = {bone: (location or None, euler degrees or None)}."""
    rig.animation_data_create()
    action = bpy.data.actions.new(name)
    rig.animation_data.action = action
    for bone in rig.pose.bones:
        bone.rotation_mode = "XYZ"
    for t, pose in keys:
        frame = 1 + t * FPS
        for bone_name, (location, euler) in pose.items():
            bone = rig.pose.bones[bone_name]
            if location is not None:
                bone.location = location
                bone.keyframe_insert("location", frame=frame)
            if euler is not None:
                bone.rotation_euler = tuple(math.radians(a) for a in euler)
                bone.keyframe_insert("rotation_euler", frame=frame)
    for fcurve in action_fcurves(action):
        for point in fcurve.keyframe_points:
            point.interpolation = interpolation
    bpy.context.scene.frame_end = 1 + round(keys[-1][0] * FPS)
    return action


def action_fcurves(action):
    """The F-curves of `action` (Blender 4.4+ keeps them in layers of slots)."""
    if hasattr(action, "fcurves") and len(action.fcurves) > 0:
        return list(action.fcurves)
    curves = []
    for layer in action.layers:
        for strip in layer.strips:
            for bag in strip.channelbags:
                curves.extend(bag.fcurves)
    return curves


def walk_keys(run=4.0, stride=50.0, bounce=0.04, turning=0.4, turn=180.0):
    """Walk at 1.4 m/s for 1.5 s, run at `run` m/s (4) for 1 s, the thighs swinging by
    ±`stride`° (50) and the hips bouncing `bounce` m (0.04), stop dead, turn by `turn`° (180,
    to the left) in `turning` s (0.4), stand, keyed every second frame. A vertical bone's y is
    world Z and its z is world −Y, so the Hips moving forward (−Y, the figure's front) is +z of
    its location, and turning is about its y."""
    full_turn = turn
    keys = []
    t, forward = 0.0, 0.0
    while t < 3.5 + 1e-6:
        if t <= 1.5:
            speed, swing, arm, lift = 1.4, 28.0, 20.0, 0.0
            forward = 1.4 * t
            phase = t / 1.0 * 2 * math.pi
        elif t <= 2.5:
            speed, swing, arm, lift = run, stride, 40.0, bounce
            forward = 2.1 + run * (t - 1.5)
            phase = 1.5 * 2 * math.pi + (t - 1.5) / 0.6 * 2 * math.pi
        else:
            swing, arm, lift = 0.0, 0.0, 0.0
            forward = 2.1 + run
            phase = 0.0
        turn = 0.0 if t <= 2.6 else min(1.0, (t - 2.6) / turning) * full_turn
        s = math.sin(phase)
        bob = lift * abs(math.sin(phase))
        pose = {
            "Hips": ((0.0, bob, forward), (0.0, turn, 0.0)),
            "Chest": (None, (0.0, -6.0 * s if t <= 2.5 else 0.0, 0.0)),
            "UpperLeg.L": (None, (swing * s, 0.0, 0.0)),
            "UpperLeg.R": (None, (-swing * s, 0.0, 0.0)),
            "LowerLeg.L": (None, (max(0.0, s) * swing * 1.2, 0.0, 0.0)),
            "LowerLeg.R": (None, (max(0.0, -s) * swing * 1.2, 0.0, 0.0)),
            "UpperArm.L": (None, (-arm * s, 0.0, 0.0)),
            "UpperArm.R": (None, (arm * s, 0.0, 0.0)),
        }
        keys.append((round(t * FPS) / FPS, pose))
        t += 2.0 / FPS
    return keys


def dance_pose(hips_up=0.0, apart=0.0, kick=0.0, knee=0.0):
    """A pose of the dancer: the hips raised by `hips_up` (m), the legs apart by ±`apart`
    degrees (the arms by 0.8 of it), the right leg kicked forward by `kick`, both knees bent by
    `knee`."""
    zero = (0.0, 0.0, 0.0)
    return {
        "Hips": ((0.0, hips_up, 0.0), zero),
        "UpperLeg.L": (None, (0.0, 0.0, -apart)),
        "UpperLeg.R": (None, (kick, 0.0, apart)),
        "LowerLeg.L": (None, (knee, 0.0, 0.0)),
        "LowerLeg.R": (None, (knee, 0.0, 0.0)),
        "UpperArm.L": (None, (0.0, 0.0, -apart * 0.8)),
        "UpperArm.R": (None, (0.0, 0.0, apart * 0.8)),
    }


def kick_keys():
    """Stand; legs apart by ±40° (0.5 s); back; a high kick of the right leg forward to 95°
    (0.9–1.3 s) and down; a jump of 0.35 m with the legs apart (1.8–2.3 s); stand."""
    pose = dance_pose
    return [
        (0.0, pose()),
        (0.5, pose(apart=40.0)),
        (0.8, pose()),
        (1.1, pose(kick=-95.0)),
        (1.4, pose()),
        (1.7, pose(hips_up=-0.08, knee=30.0)),
        (2.0, pose(hips_up=0.35, apart=40.0)),
        (2.3, pose(hips_up=0.0)),
        (2.5, pose(hips_up=-0.06, knee=25.0)),
        (3.0, pose()),
    ]


def leap_keys():
    """Stand; legs apart by ±40° (0.5 s); back; a crouch and a jump of 0.35 m with the legs
    apart by ±40° (1.4 s); landing in a crouch; stand."""
    pose = dance_pose
    return [
        (0.0, pose()),
        (0.5, pose(apart=40.0)),
        (0.8, pose()),
        (1.1, pose(hips_up=-0.08, knee=30.0)),
        (1.4, pose(hips_up=0.35, apart=40.0)),
        (1.7, pose(hips_up=0.0)),
        (1.9, pose(hips_up=-0.06, knee=25.0)),
        (2.4, pose()),
    ]


def export(path, sampled):
    bpy.context.scene.frame_set(1)
    bpy.ops.export_scene.gltf(
        filepath=str(path),
        export_format="GLB",
        export_attributes=True,
        export_skins=True,
        export_animations=True,
        export_force_sampling=sampled,
        export_yup=True,
        export_apply=False,
        export_materials="NONE",
    )


def main(folder):
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    runner_walk = walk_keys(run=4.5, stride=55.0, bounce=0.05, turning=0.3, turn=-180.0)
    for name, place, clips, interpolation, sampled, garments in [
        ("walker", PLACE, [("Walk", walk_keys())], "LINEAR", True, standard_garments),
        ("dancer", PLACE, [("Kick", kick_keys()), ("Leap", leap_keys())], "BEZIER", False, standard_garments),
        ("runner", RUNNER_PLACE, [("Walk", runner_walk)], "LINEAR", True, long_garments),
    ]:
        clear_scene()
        rig = armature(place)
        objects = [body(rig), *garments(rig)]
        actions = []
        for clip, keys in clips:
            action = keyed(rig, clip, keys, interpolation)
            action.use_fake_user = True
            actions.append((clip, action, 1 + round(keys[-1][0] * FPS)))
        rig.animation_data.action = actions[0][1]
        bpy.context.scene.frame_end = actions[0][2]
        export(folder / f"{name}.glb", sampled)
        for clip, action, last in actions:
            rig.animation_data.action = action
            frames = range(bpy.context.scene.frame_start, last + 1)
            for mesh, cache in deformed(objects, frames).items():
                write_pc2(folder / f"{name}_{clip.lower()}_{mesh.lower()}.pc2", cache)


def standard_garments(rig):
    return [cape(rig), skirt(rig), scarf(rig)]


def long_garments(rig):
    """The runner's: a cape down to the shins and a scarf down to the thighs."""
    return [
        cape(rig, columns=15, rows=28, height=1.1, width=0.5, hem=0.45),
        scarf(rig, columns=6, rows=22, length=1.0, width=0.16),
    ]


if __name__ == "__main__":
    main(sys.argv[-1])
