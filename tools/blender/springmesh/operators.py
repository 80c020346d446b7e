"""The add-on's operators: paint a Springmesh attribute, preview the simulation, export the
model. Each reports a failure as a message in the panel and the status bar."""

import os
import time

import bpy

from . import preview, run
from .settings import PAINTED, mesh_selected, target


class SPRINGMESH_OT_paint(bpy.types.Operator):
    """Create the vertex group Springmesh reads as this attribute, make it active and paint it"""

    bl_idname = "springmesh.paint"
    bl_label = "Paint"
    bl_options = {"REGISTER", "UNDO"}

    attribute: bpy.props.EnumProperty(
        items=[(n, label, f"{meaning} ({n})") for n, label, meaning, _, _ in PAINTED],
        name="Attribute",
    )

    @classmethod
    def poll(cls, context):
        return mesh_selected(context)

    def execute(self, context):
        obj = target(context)
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
    """Convert the object with Springmesh, simulate the scene's frame range and play it on the
    timeline (Esc cancels)"""

    bl_idname = "springmesh.preview"
    bl_label = "Preview"
    bl_options = {"REGISTER", "UNDO"}

    @classmethod
    def poll(cls, context):
        return mesh_selected(context)

    def execute(self, context):
        """Without a window (a script, a test): the whole run, then the preview."""
        obj = target(context)
        try:
            job = preview.Job(context, obj)
            while not job.done:
                job.step()
                time.sleep(0.02)
        except run.Failed as e:
            return _fail(self, obj, str(e))
        job.finish(context)
        return {"FINISHED"}

    def invoke(self, context, event):
        """In Blender's window: the run goes on in the background, its progress in the status
        bar, Esc to cancel ([`SPRINGMESH_OT_preview.modal`])."""
        if context.window is None:
            return self.execute(context)
        obj = target(context)
        try:
            self.job = preview.Job(context, obj)
        except run.Failed as e:
            return _fail(self, obj, str(e))
        wm = context.window_manager
        self.timer = wm.event_timer_add(0.1, window=context.window)
        wm.modal_handler_add(self)
        wm.progress_begin(0, 100)
        return {"RUNNING_MODAL"}

    def modal(self, context, event):
        """One step of a run in the window: Esc cancels it; each timer tick reads its progress
        and, once it is done, makes the preview."""
        obj = self.job.obj
        if event.type == "ESC":
            self.job.cancel()
            _ended(self, context)
            obj.springmesh.status = "preview cancelled"
            return {"CANCELLED"}
        if event.type != "TIMER":
            return {"PASS_THROUGH"}
        try:
            fraction = self.job.step()
        except run.Failed as e:
            _ended(self, context)
            return _fail(self, obj, str(e))
        if not self.job.done:
            context.window_manager.progress_update(100.0 * fraction)
            _status(context, f"Springmesh: simulating {obj.name}, {fraction:.0%} (Esc: cancel)")
            return {"RUNNING_MODAL"}
        _ended(self, context)
        self.job.finish(context)
        return {"FINISHED"}


def _status(context, text):
    """Text in Blender's status bar (None: its own again), where there is one."""
    if context.workspace is not None:
        context.workspace.status_text_set(text)


def _ended(op, context):
    """The end of a run in the window: its timer, progress and status text gone."""
    if getattr(op, "timer", None) is not None:
        context.window_manager.event_timer_remove(op.timer)
        op.timer = None
    context.window_manager.progress_end()
    _status(context, None)


class SPRINGMESH_OT_show(bpy.types.Operator):
    """Show the original object or its preview, or clear the preview"""

    bl_idname = "springmesh.show"
    bl_label = "Show"
    bl_options = {"REGISTER", "UNDO"}

    what: bpy.props.EnumProperty(
        items=(
            ("ORIGINAL", "Show original", "Show the object and hide its preview"),
            ("PREVIEW", "Show preview", "Show the preview and hide the object"),
            ("CLEAR", "Clear preview", "Remove the preview object and show the object"),
        ),
        name="Show",
    )

    @classmethod
    def poll(cls, context):
        return mesh_selected(context) and target(context).springmesh.preview is not None

    def execute(self, context):
        obj = target(context)
        if self.what == "CLEAR":
            preview.clear(obj)
        else:
            preview.show(obj, preview=self.what == "PREVIEW")
        context.view_layer.objects.active = obj
        return {"FINISHED"}


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
            name = bpy.path.clean_name(target(context).name)
            self.filepath = bpy.path.ensure_ext(name, ".spring")
        context.window_manager.fileselect_add(self)
        return {"RUNNING_MODAL"}

    def execute(self, context):
        obj = target(context)
        if not self.filepath:
            return _fail(self, obj, "choose where to save the model")
        path = bpy.path.abspath(self.filepath)
        glb = os.path.join(preview.scratch(), bpy.path.clean_name(obj.name) + "-export.glb")
        try:
            run.binary(context)
            mesh = run.export(context, obj, glb)
            obj.springmesh.report = run.convert(context, obj, glb, mesh, path)
        except run.Failed as e:
            return _fail(self, obj, str(e))
        obj.springmesh.status = f"saved {path}"
        return {"FINISHED"}


_CLASSES = (SPRINGMESH_OT_paint, SPRINGMESH_OT_preview, SPRINGMESH_OT_show, SPRINGMESH_OT_export)


def register():
    for c in _CLASSES:
        bpy.utils.register_class(c)


def unregister():
    for c in reversed(_CLASSES):
        bpy.utils.unregister_class(c)
