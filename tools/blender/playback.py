"""Plays a simulated cape back in Blender, as an artist would, and says whether it lines up
with the figure's own animation.

    python tools/blender/playback.py assets/characters/hero.glb cape.pc2

`cape.pc2` is `springmesh simulate cape.spring --animation hero.glb --clip Walk --pc2 cape.pc2
--fps 30` of the cape converted with `convert hero.glb --mesh Cape`. The script imports the
figure with Blender's glTF importer, puts the cache on the imported Cape with a Mesh Cache
modifier (in place of its Armature modifier: the cache holds world positions, Y up), plays the
timeline, and compares, at every frame, the played-back vertices painted `_MAX_DISTANCE` 0
with Blender's own armature deformation of the same vertices. It prints the worst distance
and exits 1 when it is over 1 mm.
"""

import sys

import bpy

FPS = 30


def main(glb, pc2):
    bpy.ops.wm.read_factory_settings(use_empty=True)
    bpy.context.scene.render.fps = FPS
    bpy.ops.import_scene.gltf(filepath=glb)
    cape = bpy.data.objects["Cape"]
    rig = next(o for o in bpy.data.objects if o.type == "ARMATURE")
    rig.animation_data.action = next(a for a in bpy.data.actions if a.name.startswith("Walk"))
    painted = cape.data.attributes["_MAX_DISTANCE"]
    pinned = [i for i, d in enumerate(painted.data) if d.value == 0.0]
    # The figure's own deformation of the pinned vertices, frame by frame.
    scene = bpy.context.scene
    frames = range(0, 76)
    own = []
    for f in frames:
        scene.frame_set(f)
        ev = cape.evaluated_get(bpy.context.evaluated_depsgraph_get())
        own.append([ev.matrix_world @ ev.data.vertices[i].co for i in pinned])
    # The playback: the cache instead of the armature.
    for m in list(cape.modifiers):
        cape.modifiers.remove(m)
    cape.parent = None
    cape.matrix_world.identity()
    cache = cape.modifiers.new("Springmesh", "MESH_CACHE")
    cache.cache_format = "PC2"
    cache.filepath = pc2
    # glTF's Y-up (x, y, z) is Blender's (x, −z, y): found by trying every pair on the rest pose.
    cache.forward_axis = "POS_Z"
    cache.up_axis = "NEG_Y"
    cache.frame_start = 0.0
    worst = 0.0
    for f in frames:
        scene.frame_set(f)
        ev = cape.evaluated_get(bpy.context.evaluated_depsgraph_get())
        for k, i in enumerate(pinned):
            worst = max(worst, (ev.matrix_world @ ev.data.vertices[i].co - own[f][k]).length)
    print(f"{len(pinned)} pinned vertices over {len(frames)} frames: played back within {worst * 1000:.3f} mm of the figure's own animation")
    sys.exit(0 if worst < 1e-3 else 1)


if __name__ == "__main__":
    main(sys.argv[-2], sys.argv[-1])
