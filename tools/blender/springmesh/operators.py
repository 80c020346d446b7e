"""The add-on's operators: paint a Springmesh attribute, preview the simulation, export the
model. Each reports a failure as a message in the panel and the status bar."""

import os
import tempfile

import bpy

from . import run
from .settings import PAINTED, mesh_selected

# Where each previewed object's files are kept (a folder per object, per session).
_FOLDER = tempfile.mkdtemp(prefix="springmesh-blender-")

# The preview object's name for an object.
PREVIEW = "{} (Springmesh preview)"


class SPRINGMESH_OT_paint(bpy.types.Operator):
    """Create the vertex group Springmesh reads as this attribute, make it active and paint it"""

    bl_idname = "springmesh.paint"
    bl_label = "Paint"
    bl_options = {"REGISTER", "UNDO"}

    attribute: bpy.props.EnumProperty(
        items=[(n, n, meaning) for n, meaning, _, _ in PAINTED], name="Attribute"
    )

    @classmethod
    def poll(cls, context):
        return mesh_selected(context)

    def execute(self, context):
        obj = context.object
        group = obj.vertex_groups.get(self.attribute) or obj.vertex_groups.new(
            name=self.attribute
        )
        obj.vertex_groups.active_index = group.index
        try:
            bpy.ops.object.mode_set(mode="WEIGHT_PAINT")
        except RuntimeError:
            # Without a 3D view (a script, a test) the group is made and chosen all the same.
            pass
        return {"FINISHED"}


def _fail(self, obj, message):
    obj.springmesh.status = message
    self.report({"ERROR"}, message)
    return {"CANCELLED"}


class SPRINGMESH_OT_preview(bpy.types.Operator):
    """Convert the object with Springmesh, simulate it and play the result on the timeline"""

    bl_idname = "springmesh.preview"
    bl_label = "Preview"

    @classmethod
    def poll(cls, context):
        return mesh_selected(context)

    def execute(self, context):
        obj = context.object
        if obj.name.endswith(PREVIEW.format("")):
            return _fail(self, obj, "select the object itself, not its preview")
        folder = os.path.join(_FOLDER, bpy.path.clean_name(obj.name))
        os.makedirs(folder, exist_ok=True)
        glb, model = os.path.join(folder, "mesh.glb"), os.path.join(folder, "model.spring")
        pc2, frames = os.path.join(folder, "cache.pc2"), os.path.join(folder, "frames")
        fps = context.scene.render.fps / context.scene.render.fps_base
        try:
            run.binary(context)
            mesh = run.export(context, obj, glb)
            report = run.convert(context, obj, glb, mesh, model)
            # A worn cloth plays its armature's action on the body, as the timeline does.
            action = run.clip(obj)
            animation = ["--animation", glb, "--clip", action] if action else []
            report += "\n" + run.command(
                context, "simulate", model, "--seconds", str(obj.springmesh.seconds),
                "--fps", f"{fps:g}", "--pc2", pc2, "--frames", frames, *animation,
            )
        except run.Failed as e:
            return _fail(self, obj, str(e))
        preview = self.replace_preview(context, obj, os.path.join(frames, "frame_00001.obj"))
        cache = preview.modifiers.new("Springmesh", "MESH_CACHE")
        cache.cache_format = "PC2"
        cache.filepath = pc2
        cache.frame_start = 0.0
        obj.hide_set(True)
        obj.springmesh.report = report
        obj.springmesh.status = f"previewing {obj.springmesh.seconds:g} s from frame 0"
        return {"FINISHED"}

    @staticmethod
    def replace_preview(context, obj, first):
        """A new preview object: the run's first frame (the converted mesh's vertices in the
        cache's order), imported as OBJ, which turns its y-up into Blender's z-up."""
        old = bpy.data.objects.get(PREVIEW.format(obj.name))
        if old is not None:
            bpy.data.objects.remove(old)
        bpy.ops.wm.obj_import(filepath=first)
        preview = context.selected_objects[0]
        preview.name = PREVIEW.format(obj.name)
        return preview


class SPRINGMESH_OT_export(bpy.types.Operator):
    """Convert the object with Springmesh and save the model for a game"""

    bl_idname = "springmesh.export"
    bl_label = "Export .spring"

    filepath: bpy.props.StringProperty(subtype="FILE_PATH")
    filter_glob: bpy.props.StringProperty(default="*.spring;*.spring.json", options={"HIDDEN"})

    @classmethod
    def poll(cls, context):
        return mesh_selected(context)

    def invoke(self, context, event):
        if not self.filepath:
            self.filepath = bpy.path.ensure_ext(bpy.path.clean_name(context.object.name), ".spring")
        context.window_manager.fileselect_add(self)
        return {"RUNNING_MODAL"}

    def execute(self, context):
        obj = context.object
        if not self.filepath:
            return _fail(self, obj, "choose where to save the model")
        path = bpy.path.abspath(self.filepath)
        glb = os.path.join(_FOLDER, bpy.path.clean_name(obj.name) + "-export.glb")
        try:
            run.binary(context)
            mesh = run.export(context, obj, glb)
            obj.springmesh.report = run.convert(context, obj, glb, mesh, path)
        except run.Failed as e:
            return _fail(self, obj, str(e))
        obj.springmesh.status = f"saved {path}"
        return {"FINISHED"}


_CLASSES = (SPRINGMESH_OT_paint, SPRINGMESH_OT_preview, SPRINGMESH_OT_export)


def register():
    for c in _CLASSES:
        bpy.utils.register_class(c)


def unregister():
    for c in reversed(_CLASSES):
        bpy.utils.unregister_class(c)
