"""Springmesh in Blender: paint the per-vertex data Springmesh reads, convert the selected mesh
into a spring model, preview its simulation on the timeline, and export the `.spring` file.

The add-on runs the released `springmesh` command-line tool (its path is a preference; by
default the one on PATH) and reimplements nothing of it: Preview exports the object as the
viewport shows it (its modifiers applied) as glTF with its painted attributes, runs
`springmesh convert` and `springmesh simulate` over the scene's frame range at its frame rate
(in the background, with its progress in the status bar; Esc cancels), and plays the point
cache back with a Mesh Cache modifier on a preview object (preview.py).
"""

from . import operators, panel, settings

_MODULES = (settings, operators, panel)


def register():
    for module in _MODULES:
        module.register()


def unregister():
    for module in reversed(_MODULES):
        module.unregister()
