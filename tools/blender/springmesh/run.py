"""Running the `springmesh` tool on an object: the glTF it is exported as, the commands, and
their failures as messages (never a traceback)."""

import os
import shutil
import subprocess

import bpy

from .settings import PAINTED, preferences


class Failed(Exception):
    """A step that did not work, with the message the panel shows."""


def binary(context):
    """The springmesh tool: the preference, else $SPRINGMESH, else the one on PATH."""
    prefs = preferences(context)
    chosen = (prefs.binary if prefs else "") or os.environ.get("SPRINGMESH", "")
    if chosen:
        path = bpy.path.abspath(chosen)
        if os.path.isfile(path) and os.access(path, os.X_OK):
            return path
        raise Failed(f"springmesh not found at {path}: set its path in the add-on's preferences")
    found = shutil.which("springmesh")
    if not found:
        raise Failed("springmesh not found on PATH: set its path in the add-on's preferences")
    return found


def command(context, *args):
    """Runs springmesh with `args`; its output, or Failed with its error."""
    try:
        done = subprocess.run(
            [binary(context), *args], capture_output=True, text=True, timeout=600, check=False
        )
    except (OSError, subprocess.TimeoutExpired) as e:
        raise Failed(f"springmesh {args[0]} could not run: {e}") from e
    if done.returncode != 0:
        message = (done.stderr or done.stdout).strip().splitlines()
        raise Failed(f"springmesh {args[0]} failed: {message[-1] if message else done.returncode}")
    return (done.stdout + done.stderr).strip()


def weight(group, index):
    """The vertex's weight in `group` (0 when it is not in it)."""
    try:
        return group.weight(index)
    except RuntimeError:
        return 0.0


def rig_of(obj):
    """The armature `obj` is skinned to (its Armature modifier's), or None."""
    for modifier in obj.modifiers:
        if modifier.type == "ARMATURE" and modifier.object is not None:
            return modifier.object
    return None


def body_of(obj):
    """The object the settings name as the body `obj` is worn on, or None when none is named.
    Failed when the name matches no mesh object."""
    name = obj.springmesh.body
    if not name:
        return None
    body = bpy.data.objects.get(name)
    if body is None or body.type != "MESH":
        raise Failed(f"the body {name!r} is not a mesh object of this file")
    return body


def export(context, obj, path):
    """Exports `obj` as a GLB at `path`: its mesh, and each painted vertex group of a name
    Springmesh reads as that float attribute (weight × the object's scale for it; Blender
    paints weights, not attributes, and a group and an attribute cannot share a name). A cloth
    worn on a body (Settings: Body) goes with its armature, with every action, and with the
    body, its bone groups kept, so that Springmesh reads its skin and the body's and plays the
    clips. Returns the name of the exported mesh (the glTF mesh to convert)."""
    if obj is None or obj.type != "MESH":
        raise Failed("select a mesh object")
    if not obj.data.polygons:
        raise Failed(f"{obj.name} has no faces: Springmesh converts faces (triangles, quads)")
    settings = obj.springmesh
    body, rig = body_of(obj), rig_of(obj)
    if body is not None and rig is None:
        raise Failed(f"{obj.name} is worn on {body.name} but has no Armature modifier: skin it")
    mesh = obj.data.copy()
    copy = bpy.data.objects.new(obj.name, mesh)
    copy.matrix_world = obj.matrix_world
    try:
        # The copy's mesh keeps each vertex's group weights by group index: the same groups
        # in the same order name them again, and the painted ones then become attributes.
        for group in obj.vertex_groups:
            copy.vertex_groups.new(name=group.name)
        for name, _, _, _ in PAINTED:
            group = obj.vertex_groups.get(name)
            if group is None:
                continue
            scale = getattr(settings, "scale" + name.lower())
            copy.vertex_groups.remove(copy.vertex_groups[name])
            values = mesh.attributes.new(name, "FLOAT", "POINT")
            for v in mesh.vertices:
                values.data[v.index].value = weight(group, v.index) * scale
        worn = body is not None
        if worn:
            copy.parent, copy.matrix_parent_inverse = obj.parent, obj.matrix_parent_inverse
            copy.modifiers.new("Armature", "ARMATURE").object = rig
        # Exported alone (with its figure): a collection of its own, made the active one.
        holder = bpy.data.collections.new("Springmesh export")
        context.scene.collection.children.link(holder)
        for o in [copy] + ([rig, body] if worn else []):
            holder.objects.link(o)
        layer = context.view_layer.layer_collection.children[holder.name]
        context.view_layer.active_layer_collection = layer
        bpy.ops.export_scene.gltf(
            filepath=path,
            export_format="GLB",
            use_active_collection=True,
            export_attributes=True,
            # Applying the modifiers would bake the armature's pose into a worn cloth.
            export_apply=not worn,
            export_skins=worn,
            export_animations=worn,
            export_materials="NONE",
        )
        return mesh.name
    finally:
        bpy.data.objects.remove(copy)
        bpy.data.meshes.remove(mesh)
        if "holder" in locals():
            bpy.data.collections.remove(holder)
        obj.select_set(True)
        context.view_layer.objects.active = obj


def convert(context, obj, glb, mesh, out):
    """`springmesh convert` of the glTF mesh `mesh` of the exported `glb` into `out` with the
    object's settings, then `tune` when they ask for a behaviour; the reports."""
    s = obj.springmesh
    args = ["convert", glb, "-o", out, "--mesh", mesh]
    if s.kind == "SOLID":
        args.append("--solid")
    if s.self_collision:
        args += ["--self-collision"] + ([str(s.thickness)] if s.thickness > 0 else [])
    body = body_of(obj)
    if body is not None:
        args += ["--body", body.data.name]
    report = command(context, *args)
    if s.behaviour == "FREQUENCY":
        report += "\n" + command(context, "tune", out, "-o", out, "--frequency", str(s.frequency))
    elif s.behaviour == "SAG":
        report += "\n" + command(context, "tune", out, "-o", out, "--sag", str(s.sag))
    return report


def clip(obj):
    """The name of the action the armature of a worn `obj` plays (the glTF clip of the same
    name), or None."""
    rig = rig_of(obj) if obj.springmesh.body else None
    data = rig.animation_data if rig is not None else None
    return data.action.name if data is not None and data.action is not None else None
