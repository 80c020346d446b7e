"""The Springmesh panel in the 3D view's sidebar (N): Paint, Settings, Preview, Export. With a
preview selected it shows the previewed object's panel."""

import bpy

from .preview import frame_range
from .settings import PAINTED, mesh_selected, target


class SPRINGMESH_PT_panel(bpy.types.Panel):
    bl_label = "Springmesh"
    bl_space_type = "VIEW_3D"
    bl_region_type = "UI"
    bl_category = "Springmesh"

    @classmethod
    def poll(cls, context):
        return mesh_selected(context)

    def draw(self, context):
        layout = self.layout
        obj = target(context)
        s = obj.springmesh
        layout.label(text=obj.name, icon="MESH_DATA")
        box = layout.box()
        box.label(text="Paint (weight paint: the value at full weight)")
        for name, label, meaning, unit, _ in PAINTED:
            row = box.row(align=True)
            op = row.operator("springmesh.paint", text=label)
            op.attribute = name
            if unit:
                row.prop(s, "scale" + name.lower(), text=unit)
        box = layout.box()
        box.label(text="Settings")
        box.prop(s, "kind")
        box.prop(s, "behaviour")
        if s.behaviour == "FREQUENCY":
            box.prop(s, "frequency")
        elif s.behaviour == "SAG":
            box.prop(s, "sag")
        box.prop(s, "self_collision")
        if s.self_collision:
            box.prop(s, "thickness")
        box.prop(s, "body")
        box = layout.box()
        first, last, fps = frame_range(context.scene)
        box.label(text=f"Preview: frames {first}–{last} at {fps:g} fps (the scene's range)")
        box.prop(s, "cache_folder")
        row = box.row(align=True)
        row.operator("springmesh.preview", icon="PLAY")
        row.operator("springmesh.export", icon="EXPORT")
        if s.preview is not None:
            row = box.row(align=True)
            for what, text in (("ORIGINAL", "Original"), ("PREVIEW", "Preview"), ("CLEAR", "Clear")):
                row.operator("springmesh.show", text=text).what = what
        if s.status:
            box.label(text=s.status)
        for line in s.report.splitlines():
            line = line.strip()
            warned = line.startswith("warning:")
            box.label(text=line.removeprefix("warning:").strip(), icon="ERROR" if warned else "NONE")


def register():
    bpy.utils.register_class(SPRINGMESH_PT_panel)


def unregister():
    bpy.utils.unregister_class(SPRINGMESH_PT_panel)
