"""What the add-on keeps: per object, how it is converted and previewed (saved in the .blend
file with the object); per add-on, where the `springmesh` tool is."""

import bpy

# The per-vertex data Springmesh reads (crates/convert/src/painted.rs, rigging.rs): name,
# what a full weight (1) means, the unit, and the default scale of a full weight.
PAINTED = (
    ("_PIN", "Pinned: the vertex is an anchor (weight ≥ 0.5)", "", 1.0),
    ("_STIFFNESS", "Stiffness factor of the springs at the vertex", "×", 1.0),
    ("_MASS", "Mass factor of the vertex's node", "×", 1.0),
    ("_MAX_DISTANCE", "How far a worn vertex may leave its skin (0: it follows the skin)", "m", 0.1),
    ("_BACKSTOP_DISTANCE", "How far behind its skin a worn vertex's back-stop is", "m", 0.02),
    ("_BACKSTOP_RADIUS", "The back-stop sphere's radius", "m", 1.0),
)


class SpringmeshObjectSettings(bpy.types.PropertyGroup):
    kind: bpy.props.EnumProperty(
        name="Kind",
        items=(
            ("SHEET", "Sheet", "Cloth, flags, capes: the surface's springs"),
            ("SOLID", "Solid", "Jelly, creatures, soft props: the inside filled with a lattice"),
        ),
        default="SHEET",
    )
    behaviour: bpy.props.EnumProperty(
        name="Stiffness by",
        items=(
            ("DEFAULT", "Defaults", "The converter's default stiffness"),
            ("FREQUENCY", "Frequency", "Tune every stiffness so the lowest vibration is this (Hz)"),
            ("SAG", "Sag", "Tune every stiffness so it sags this share of its size at rest"),
        ),
        default="DEFAULT",
    )
    frequency: bpy.props.FloatProperty(name="Frequency (Hz)", default=2.0, min=0.01)
    sag: bpy.props.FloatProperty(name="Sag (share of size)", default=0.05, min=0.0001, max=1.0)
    self_collision: bpy.props.BoolProperty(name="Self-collision", default=False)
    thickness: bpy.props.FloatProperty(
        name="Thickness (m)", description="0: from the mesh's edges", default=0.0, min=0.0
    )
    body: bpy.props.StringProperty(
        name="Body",
        description="For a cloth worn by a skinned figure: the mesh object it is worn on (the "
        "cloth's armature plays its action in the preview)",
    )
    seconds: bpy.props.FloatProperty(name="Seconds", default=3.0, min=0.1, max=600.0)
    status: bpy.props.StringProperty(name="Status")
    report: bpy.props.StringProperty(name="Report")


for name, _, _, scale in PAINTED:
    SpringmeshObjectSettings.__annotations__["scale" + name.lower()] = bpy.props.FloatProperty(
        name=name + " at full weight", default=scale, min=0.0
    )


class SpringmeshPreferences(bpy.types.AddonPreferences):
    bl_idname = __package__

    binary: bpy.props.StringProperty(
        name="springmesh",
        description="The springmesh command-line tool (empty: the one on PATH)",
        subtype="FILE_PATH",
    )

    def draw(self, context):
        self.layout.prop(self, "binary")


def mesh_selected(context):
    """Whether the active object is a mesh: what every Springmesh button and the panel need."""
    return context.object is not None and context.object.type == "MESH"


def preferences(context):
    """The add-on's preferences, or None when it runs as a plain module (tests)."""
    addon = context.preferences.addons.get(__package__)
    return addon.preferences if addon else None


def register():
    bpy.utils.register_class(SpringmeshObjectSettings)
    bpy.utils.register_class(SpringmeshPreferences)
    bpy.types.Object.springmesh = bpy.props.PointerProperty(type=SpringmeshObjectSettings)


def unregister():
    del bpy.types.Object.springmesh
    bpy.utils.unregister_class(SpringmeshPreferences)
    bpy.utils.unregister_class(SpringmeshObjectSettings)
