"""A preview: the object converted, `springmesh simulate` run over the scene's frame range at
the scene's frame rate, and its point cache played on a preview object in the original's
place.

Frames line up with Blender's: the run starts at rest at the range's first frame F0 (a worn
cloth on its armature's pose there: the clip at F0 / fps s, where Blender's glTF exporter puts
that frame), sample k of the cache is frame F0 + k, and the Mesh Cache modifier plays sample
(frame − F0). The cache is written in the object's folder of the Cache folder setting
(`//springmesh_cache/<object>/` beside the .blend by default), and the preview refers to it by
a path relative to the .blend, so that it plays wherever the .blend and its folder go.

A [`Job`] runs in steps, so that the Preview operator can show its progress and cancel it
with Esc between them (operators.py); a script or a test without a window runs it to the end.
"""

import os
import re
import shutil
import subprocess
import tempfile

import bpy

from . import run

# The preview object's name for an object.
PREVIEW = "{} (Springmesh preview)"

# Where an unsaved .blend's previews go (a folder per session).
_UNSAVED = tempfile.mkdtemp(prefix="springmesh-blender-")


def scratch():
    """A folder for files nobody keeps (the glTF an Export converts)."""
    return _UNSAVED


def cache_folder(obj):
    """The folder of `obj`'s preview files: its Cache folder setting (relative to the .blend),
    or a temporary one while the .blend is unsaved and the setting is relative."""
    folder = obj.springmesh.cache_folder or "//springmesh_cache"
    if folder.startswith("//") and not bpy.data.filepath:
        folder = _UNSAVED
    return os.path.join(bpy.path.abspath(folder), bpy.path.clean_name(obj.name))


def frame_range(scene):
    """The scene's first and last frames and its frame rate."""
    fps = scene.render.fps / scene.render.fps_base
    return scene.frame_start, max(scene.frame_end, scene.frame_start), fps


class Job:
    """A preview of `obj` under way: exported and converted when made, then simulated by a
    `springmesh simulate` process that [`Job.step`] follows."""

    def __init__(self, context, obj):
        if obj.name.endswith(PREVIEW.format("")):
            raise run.Failed("select the object itself, not its preview")
        self.obj = obj
        self.first, last, fps = frame_range(context.scene)
        self.final = cache_folder(obj)
        # The run writes beside the last preview's files and replaces them when it is done.
        self.folder = self.final + ".new"
        shutil.rmtree(self.folder, ignore_errors=True)
        os.makedirs(self.folder)
        glb, model = self.at("mesh.glb"), self.at("model.spring")
        self.binary = run.binary(context)
        # A hidden object is not evaluated: the original is shown while it is exported.
        obj.hide_set(False)
        mesh = run.export(context, obj, glb)
        self.report = run.convert(context, obj, glb, mesh, model)
        action = run.clip(obj)
        animation = []
        if action:
            animation = ["--animation", glb, "--clip", action, "--clip-start", repr(self.first / fps)]
        seconds = (last - self.first) / fps
        self.frames = last - self.first + 1
        args = ["simulate", model, "--seconds", repr(seconds), "--fps", repr(fps), "--progress"]
        args += ["--pc2", self.at("cache.pc2"), "--frames", self.at("frames"), *animation]
        self.out = open(self.at("simulate.txt"), "w+")
        self.log = open(self.at("progress.txt"), "w+")
        try:
            self.process = subprocess.Popen(
                [self.binary, *args], stdout=self.out, stderr=self.log, stdin=subprocess.DEVNULL
            )
        except OSError as e:
            self.close()
            raise run.Failed(f"springmesh simulate could not run: {e}") from e
        self.done = False

    def at(self, name):
        """The path of the run's file `name`."""
        return os.path.join(self.folder, name)

    def step(self):
        """How far the run is (0 to 1); `done` once it has finished. Failed when it failed."""
        if self.done:
            return 1.0
        code = self.process.poll()
        self.log.seek(0)
        said = self.log.read()
        if code is None:
            # Whole lines only: the last one may be half written.
            steps = re.findall(r"^progress (\d+)/(\d+)\n", said, re.MULTILINE)
            return min(int(steps[-1][0]) / max(int(steps[-1][1]), 1), 1.0) if steps else 0.0
        lines = said.splitlines()
        if code != 0:
            self.close()
            said = [line for line in lines if not line.startswith("progress ")]
            raise run.Failed(f"springmesh simulate failed: {said[-1] if said else code}")
        self.out.seek(0)
        self.report += "\n" + self.out.read().strip()
        self.close()
        self.done = True
        return 1.0

    def cancel(self):
        """Stops the run and leaves everything as it was before it: the original shown, the
        last preview (if any) as it was, no files of this run."""
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()
        self.close()
        shutil.rmtree(self.folder, ignore_errors=True)
        self.obj.hide_set(False)

    def close(self):
        for f in (self.out, self.log):
            f.close()

    def finish(self, context):
        """The run's files in place of the last preview's, and a preview object playing them
        in the original's place; the original hidden (in the viewport and in renders) and still
        the active object, so that its panel and report stay in view. Returns the preview."""
        obj = self.obj
        remove(obj.springmesh.preview or bpy.data.objects.get(PREVIEW.format(obj.name)))
        shutil.rmtree(self.final, ignore_errors=True)
        os.replace(self.folder, self.final)
        first = os.path.join(self.final, "frames", "frame_00001.obj")
        preview = self.imported(context, first)
        preview.name = PREVIEW.format(obj.name)
        preview.springmesh.source = obj
        cache = preview.modifiers.new("Springmesh", "MESH_CACHE")
        cache.cache_format = "PC2"
        pc2 = os.path.join(self.final, "cache.pc2")
        cache.filepath = bpy.path.relpath(pc2) if bpy.data.filepath else pc2
        cache.frame_start = float(self.first)
        obj.springmesh.preview = preview
        obj.springmesh.report = self.report
        obj.springmesh.status = (
            f"previewing frames {self.first}–{self.first + self.frames - 1}"
            + ("" if bpy.data.filepath else " (save the .blend to keep the cache beside it)")
        )
        show(obj, preview=True)
        context.view_layer.objects.active = obj
        return preview

    @staticmethod
    def imported(context, path):
        """The run's first frame (the converted mesh's vertices in the cache's order), imported
        as OBJ, which turns its y-up into Blender's z-up."""
        bpy.ops.wm.obj_import(filepath=path)
        return context.selected_objects[0]


def show(obj, preview):
    """Shows `obj`'s preview and hides `obj` (in the viewport and in renders), or the other way
    round."""
    other = obj.springmesh.preview
    obj.hide_set(preview)
    obj.hide_render = preview
    if other is not None:
        other.hide_set(not preview)
        other.hide_render = not preview


def clear(obj):
    """Removes `obj`'s preview object and shows `obj` (its cache files stay)."""
    remove(obj.springmesh.preview)
    obj.springmesh.preview = None
    obj.hide_set(False)
    obj.hide_render = False
    obj.springmesh.status = ""


def remove(preview):
    """Removes a preview object and its mesh (nothing for None)."""
    if preview is None:
        return
    mesh = preview.data
    bpy.data.objects.remove(preview)
    if mesh is not None and mesh.users == 0:
        bpy.data.meshes.remove(mesh)
