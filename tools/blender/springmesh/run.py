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
    """The armature `obj` is skinned to (its Armature modifier's, or its parent's when it is
    parented with the Armature type, Blender's older way of skinning), or None."""
    for modifier in obj.modifiers:
        if modifier.type == "ARMATURE" and modifier.object is not None:
            return modifier.object
    parent = obj.parent
    if obj.parent_type == "ARMATURE" and parent is not None and parent.type == "ARMATURE":
        return parent
    return None


def body_of(obj):
    """The mesh object the settings say `obj` is worn on, or None."""
    body = obj.springmesh.body
    return body if body is not None and body.type == "MESH" else None


def evaluated_mesh(context, obj, worn):
    """A new mesh of `obj` as the viewport shows it: its modifiers applied (Mirror,
    Subdivision, ...), the edits of Edit Mode in, its vertex groups and attributes kept; for a
    worn cloth without its Armature modifiers, so that it is the cloth at rest, which the
    exported skin then poses."""
    if obj.mode == "EDIT":
        obj.update_from_editmode()
    skins = [m for m in obj.modifiers if worn and m.type == "ARMATURE" and m.show_viewport]
    for m in skins:
        m.show_viewport = False
    # An Armature-type parent deforms as a modifier would: the cloth at rest is its mesh
    # without it.
    parented = worn and obj.parent_type == "ARMATURE"
    if parented:
        obj.parent_type = "OBJECT"
    try:
        depsgraph = context.evaluated_depsgraph_get()
        depsgraph.update()
        evaluated = obj.evaluated_get(depsgraph)
        return bpy.data.meshes.new_from_object(
            evaluated, preserve_all_data_layers=True, depsgraph=depsgraph
        )
    finally:
        for m in skins:
            m.show_viewport = True
        if parented:
            obj.parent_type = "ARMATURE"


def export(context, obj, path):
    """Exports `obj` as a GLB at `path`: its mesh as the viewport shows it
    ([`evaluated_mesh`]), and each painted vertex group of a name Springmesh reads as that
    float attribute (weight × the object's scale for it; Blender paints weights, not
    attributes, and a group and an attribute cannot share a name). A cloth worn on a body
    (Settings: Worn on) goes with its armature, with every action, and with the body, its bone
    groups kept, so that Springmesh reads its skin and the body's and plays the clips; it keeps
    its parent and its place under it, so that the armature object's own location, rotation
    and scale are applied once. Returns the name of the exported mesh (the glTF mesh to
    convert)."""
    if obj is None or obj.type != "MESH":
        raise Failed("select a mesh object")
    settings = obj.springmesh
    body, rig = body_of(obj), rig_of(obj)
    worn = body is not None
    if worn and rig is None:
        raise Failed(f"{obj.name} is worn on {body.name} but has no Armature modifier: skin it")
    mesh = evaluated_mesh(context, obj, worn)
    if not mesh.polygons:
        bpy.data.meshes.remove(mesh)
        raise Failed(f"{obj.name} has no faces: Springmesh converts faces (triangles, quads)")
    mesh.name = bpy.path.clean_name(obj.name) + "_springmesh"
    copy = bpy.data.objects.new(obj.name + " (Springmesh export)", mesh)
    try:
        # The mesh keeps each vertex's group weights by group index: the same groups in the
        # same order name them again, and the painted ones then become attributes.
        for group in obj.vertex_groups:
            if copy.vertex_groups.get(group.name) is None:
                copy.vertex_groups.new(name=group.name)
        for name, *_ in PAINTED:
            group = copy.vertex_groups.get(name)
            if group is None:
                continue
            scale = getattr(settings, "scale" + name.lower())
            values = [weight(group, v.index) * scale for v in mesh.vertices]
            copy.vertex_groups.remove(group)
            attribute = mesh.attributes.new(name, "FLOAT", "POINT")
            attribute.data.foreach_set("value", values)
        if worn:
            copy.parent = obj.parent
            # Skinned through its Armature modifier only (an Armature-type parent skins too).
            copy.parent_type = "OBJECT" if obj.parent_type == "ARMATURE" else obj.parent_type
            copy.parent_bone = obj.parent_bone
            copy.matrix_parent_inverse = obj.matrix_parent_inverse.copy()
            copy.matrix_basis = obj.matrix_basis.copy()
            copy.modifiers.new("Armature", "ARMATURE").object = rig
        else:
            copy.matrix_world = obj.matrix_world.copy()
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
            # The mesh is already the viewport's; a worn cloth's armature is its skin.
            export_apply=False,
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
        args += ["--character", body.data.name]
    report = command(context, *args)
    if s.behaviour == "FREQUENCY":
        report += "\n" + command(context, "tune", out, "-o", out, "--frequency", str(s.frequency))
    elif s.behaviour == "SAG":
        report += "\n" + command(context, "tune", out, "-o", out, "--sag", str(s.sag))
    return report


def clip(obj):
    """The name of the action the armature of a worn `obj` plays (the glTF clip of the same
    name), or None."""
    rig = rig_of(obj) if body_of(obj) is not None else None
    data = rig.animation_data if rig is not None else None
    return data.action.name if data is not None and data.action is not None else None
