"""What the add-on keeps: per object, how it is converted and previewed (saved in the .blend
file with the object); per add-on, where the `springmesh` tool is."""

import bpy

# The per-vertex data Springmesh reads (crates/convert/src/painted.rs, rigging.rs), painted as
# vertex groups: the attribute, the label the panel shows, what a full weight (1) means (the
# tooltip), the unit of the value at full weight, and its default.
PAINTED = (
    ("_PIN", "Pin", "Weight 0.5 or more pins the vertex: an anchor that does not move", "", 1.0),
    ("_STIFFNESS", "Stiffness", "The springs at the vertex are this many times as stiff", "×", 1.0),
    ("_MASS", "Mass", "The vertex's node is this many times as heavy", "×", 1.0),
    (
        "_MAX_DISTANCE",
        "Max distance",
        "How far a worn vertex may leave its skin, in metres; under 1 mm it follows the skin",
        "m",
        0.1,
    ),
    (
        "_BACKSTOP_DISTANCE",
        "Back-stop distance",
        "How far behind its skin, towards the body, a worn vertex's back-stop sphere begins (m)",
        "m",
        0.02,
    ),
    ("_BACKSTOP_RADIUS", "Back-stop radius", "The back-stop sphere's radius (m)", "m", 1.0),
)


def _is_mesh(_settings, obj):
    return obj.type == "MESH"


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
    frequency: bpy.props.FloatProperty(
        name="Frequency (Hz)", description="The lowest vibration, in hertz", default=2.0, min=0.01
    )
    sag: bpy.props.FloatProperty(
        name="Sag (share of size)",
        description="How far it sags at rest, as a share of its size (0.05: 5%)",
        default=0.05,
        min=0.0001,
        max=1.0,
    )
    self_collision: bpy.props.BoolProperty(
        name="Self-collision", description="Keep the cloth's layers apart", default=False
    )
    thickness: bpy.props.FloatProperty(
        name="Thickness (m)",
        description="How far apart its layers are kept, in metres (0: from the mesh's edges)",
        default=0.0,
        min=0.0,
        unit="LENGTH",
    )
    # Named `body` in files saved with the add-on's first version: kept, so they keep it (the
    # converter's option is `--character`).
    body: bpy.props.PointerProperty(
        type=bpy.types.Object,
        name="Worn on",
        description="For a cloth worn by a skinned figure: the mesh it is worn on, which gets "
        "colliders along its bones (the cloth's armature plays its action in the preview)",
        poll=_is_mesh,
    )
    cache_folder: bpy.props.StringProperty(
        name="Cache folder",
        description="Where Preview writes its point cache (// is the .blend's folder; an "
        "unsaved file uses a temporary folder until it is saved)",
        default="//springmesh_cache",
        subtype="DIR_PATH",
    )
    preview: bpy.props.PointerProperty(
        type=bpy.types.Object, name="Preview", description="This object's preview"
    )
    source: bpy.props.PointerProperty(
        type=bpy.types.Object, name="Previewed object", description="The object this previews"
    )
    status: bpy.props.StringProperty(name="Status")
    report: bpy.props.StringProperty(name="Report")


for _name, _label, _meaning, _unit, _scale in PAINTED:
    SpringmeshObjectSettings.__annotations__["scale" + _name.lower()] = bpy.props.FloatProperty(
        name=f"{_label} at full weight" + (f" ({_unit})" if _unit else ""),
        description=f"{_meaning}: the value a full weight paints (vertex group and attribute "
        f"{_name})",
        default=_scale,
        min=0.0,
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


def target(context):
    """The object the panel and the buttons work on: the active one, or the object it previews
    when it is a preview."""
    obj = context.object
    source = obj.springmesh.source if obj is not None else None
    return source if source is not None else obj


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
