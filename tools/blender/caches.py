"""Blender's own deformation of meshes written as PC2 point caches, in glTF's Y-up frame: the
truth the tests judge simulated cloth against (shared by `hero.py` and `figure.py`)."""

import struct

import bpy


def y_up(p):
    """Blender's Z-up coordinates as glTF's Y-up ones."""
    return (p[0], p[2], -p[1])


def write_pc2(path, frames):
    count = len(frames[0])
    with open(path, "wb") as f:
        f.write(b"POINTCACHE2\0")
        f.write(struct.pack("<iiffi", 1, count, 0.0, 1.0, len(frames)))
        for frame in frames:
            for p in frame:
                f.write(struct.pack("<fff", *p))


def deformed(objects, frames):
    """Each object's evaluated (armature-deformed) vertices at each of `frames`, Y up."""
    scene = bpy.context.scene
    out = {o.name: [] for o in objects}
    for frame in frames:
        scene.frame_set(frame)
        depsgraph = bpy.context.evaluated_depsgraph_get()
        for o in objects:
            evaluated = o.evaluated_get(depsgraph)
            mesh = evaluated.to_mesh()
            world = evaluated.matrix_world
            out[o.name].append([y_up(world @ v.co) for v in mesh.vertices])
            evaluated.to_mesh_clear()
    return out
