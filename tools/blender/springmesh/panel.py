"""The Springmesh panel in the 3D view's sidebar (N): Paint, Settings, Preview, Export."""

import bpy

from .settings import PAINTED, mesh_selected


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
        obj = context.object
        s = obj.springmesh
        box = layout.box()
        box.label(text="Paint (weight paint; full weight means:)")
        for name, meaning, unit, _ in PAINTED:
            row = box.row(align=True)
            row.operator("springmesh.paint", text=name).attribute = name
            if unit:
                row.prop(s, "scale" + name.lower(), text=unit)
            box.label(text=meaning)
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
        box.prop_search(s, "body", bpy.data, "objects")
        box = layout.box()
        box.prop(s, "seconds")
        row = box.row(align=True)
        row.operator("springmesh.preview", icon="PLAY")
        row.operator("springmesh.export", icon="EXPORT")
        if s.status:
            box.label(text=s.status)
        for line in s.report.splitlines()[-8:]:
            box.label(text=line)


def register():
    bpy.utils.register_class(SPRINGMESH_PT_panel)


def unregister():
    bpy.utils.unregister_class(SPRINGMESH_PT_panel)
