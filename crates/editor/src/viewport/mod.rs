//! The 3D viewport: camera controls, picking, and the paint callback that draws the model.
//!
//! Left drag orbits, middle drag or Shift + left drag pans, the wheel zooms; a click picks the
//! node or spring under the mouse (Shift adds to the selection), a click on nothing clears it.
//! Drawing happens on the GPU in the `renderer` module; what to draw is prepared in [`geometry`].

pub mod geometry;
pub mod gesture;
pub mod outlines;
mod renderer;
mod shaders;

use crate::actions::Action;
use crate::camera::OrbitCamera;
use crate::document::Document;
use crate::edit::Edit;
use crate::live::Live;
use crate::picking::{Pickable, pick};
use crate::selection::Item;
use eframe::egui;
use geometry::{Dynamic, GeometryCache, Statics, Styles, current_positions};
use gesture::Drag;
use glam::{Mat4, Vec2, Vec3};
use springmesh_core::SpringKind;
use springmesh_core::model::Shape;
use std::sync::{Arc, Mutex};

/// What the viewport shows.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ViewSettings {
    /// Shaded faces.
    pub faces: bool,
    /// Node points.
    pub nodes: bool,
    /// The character a worn model is worn on (its mesh, posed by the playing clip).
    pub character: bool,
    /// Nodes of a worn model coloured by their max distance (module doc of
    /// [`geometry`]) instead of their state.
    pub max_distance_colours: bool,
    /// Interior nodes (on no face: a solid's lattice), when nodes are shown.
    pub interior_nodes: bool,
    /// The camera follows the test simulation's centre.
    pub follow: bool,
    /// Springs of each kind, in the order of [`SpringKind::ALL`].
    pub kinds: [bool; SpringKind::ALL.len()],
    /// The ground grid.
    pub grid: bool,
    /// What the springs' colour shows.
    pub colour: SpringColour,
    /// Strain (fraction of the rest length) shown at full colour.
    pub strain_scale: f32,
    /// Stored energy (J) shown at full colour.
    pub energy_scale: f32,
    /// Spring width, pixels.
    pub line_width: f32,
    /// Node radius, pixels.
    pub node_radius: f32,
}

/// What the springs' colour shows.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum SpringColour {
    /// Their kind (the legend's colours).
    #[default]
    Kind,
    /// Strain (l − L)/L: compression blue, rest white, tension red.
    Strain,
    /// Stored energy ½ k (l − L)²: white at none, red at the scale.
    Energy,
}

impl Default for ViewSettings {
    fn default() -> Self {
        Self {
            faces: true,
            nodes: true,
            character: true,
            max_distance_colours: false,
            interior_nodes: true,
            follow: false,
            kinds: [true; SpringKind::ALL.len()],
            grid: true,
            colour: SpringColour::Kind,
            strain_scale: 0.01,
            energy_scale: 0.001,
            line_width: 1.5,
            node_radius: 3.5,
        }
    }
}

impl ViewSettings {
    /// The kind toggles as floats for the shader.
    pub fn kind_mask(&self) -> [f32; SpringKind::ALL.len()] {
        self.kinds.map(|k| f32::from(u8::from(k)))
    }
}

/// The viewport's colours (linear RGBA).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Colors {
    /// Per spring kind, in the order of [`SpringKind::ALL`].
    pub kinds: [[f32; 4]; SpringKind::ALL.len()],
    pub faces: [f32; 4],
    pub character: [f32; 4],
    pub node: [f32; 4],
    pub interior: [f32; 4],
    pub anchor: [f32; 4],
    pub selected: [f32; 4],
    pub current: [f32; 4],
    pub grid: [f32; 4],
}

/// The colours in use.
pub const COLORS: Colors = Colors {
    kinds: [
        [0.35, 0.65, 1.0, 1.0],
        [1.0, 0.62, 0.2, 1.0],
        [0.45, 0.85, 0.4, 1.0],
        [0.9, 0.4, 0.95, 1.0],
        [0.95, 0.85, 0.55, 1.0],
    ],
    faces: [0.55, 0.57, 0.62, 1.0],
    character: [0.78, 0.62, 0.5, 1.0],
    node: [0.85, 0.85, 0.85, 1.0],
    interior: [0.95, 0.75, 0.35, 1.0],
    anchor: [1.0, 0.25, 0.2, 1.0],
    selected: [1.0, 0.9, 0.1, 1.0],
    current: [1.0, 1.0, 1.0, 1.0],
    grid: [0.6, 0.6, 0.65, 0.55],
};

/// The max-distance colours of nodes: the shortest leash, the longest (linear RGB).
pub const DISTANCE_RAMP: [[f32; 3]; 2] = [[0.2, 0.85, 1.0], [1.0, 0.3, 0.9]];

/// The colour of a spring kind, for legends.
pub fn kind_color(kind: SpringKind) -> egui::Color32 {
    color32(COLORS.kinds[kind as usize])
}

/// A viewport colour for the UI.
pub fn color32([r, g, b, _]: [f32; 4]) -> egui::Color32 {
    egui::Color32::from_rgb((r * 255.0) as u8, (g * 255.0) as u8, (b * 255.0) as u8)
}

/// The viewport's clear colour.
pub const BACKGROUND: [f32; 4] = [0.105, 0.11, 0.12, 1.0];

/// Where the ground grid lies.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GridSpec {
    pub center: [f32; 3],
    pub extent: f32,
    pub ground: f32,
    pub spacing: f32,
}

/// Everything one frame draws; shared with the paint callback.
pub struct DrawFrame {
    pub statics: Arc<Statics>,
    pub styles: Arc<Styles>,
    pub dynamic: Arc<Dynamic>,
    pub view_projection: Mat4,
    pub settings: ViewSettings,
    pub colors: Colors,
    pub grid: GridSpec,
    /// Direction towards the light.
    pub light: [f32; 3],
    pub background: [f32; 4],
}

/// What the renderer reports back.
#[derive(Clone, Debug, Default)]
pub struct RenderStats {
    /// CPU time of the last paint callback's uploads of changed geometry, ms.
    pub upload_ms: f32,
    /// CPU time of the last paint callback's clearing and draw calls, ms (with a software
    /// renderer such as Mesa's llvmpipe this includes the vertex shading).
    pub draw_ms: f32,
    /// Why the renderer could not start, if it could not.
    pub error: Option<String>,
}

/// The viewport's state.
pub struct Viewport {
    /// The camera.
    pub camera: OrbitCamera,
    /// What is shown.
    pub settings: ViewSettings,
    cache: GeometryCache,
    /// Reported by the renderer.
    pub stats: Arc<Mutex<RenderStats>>,
    /// The viewport's last size in points (for keeping nodes in view).
    pub size: Vec2,
    /// The viewport's last rectangle in points.
    pub rect: egui::Rect,
    /// A selecting or node drag going on.
    drag: Option<Drag>,
}

impl Default for Viewport {
    fn default() -> Self {
        Self {
            camera: OrbitCamera::default(),
            settings: ViewSettings::default(),
            cache: GeometryCache::default(),
            stats: Arc::default(),
            size: Vec2::ZERO,
            rect: egui::Rect::NOTHING,
            drag: None,
        }
    }
}

impl Viewport {
    /// Points the camera at the whole model.
    pub fn frame_all(&mut self, doc: &Document, live: &Live) {
        let positions = current_positions(doc, live);
        if let Some(b) = springmesh_core::Aabb::from_points(&positions) {
            self.camera.frame(b, self.aspect());
        }
    }

    /// Points the camera at a model just opened, and at the room it will hang into: a model
    /// held by anchors under gravity swings down by up to its own size; a worn model with its
    /// character is framed with the character.
    pub fn frame_opened(&mut self, doc: &Document) {
        let m = doc.model();
        let Some(mut b) = m.bounding_box() else { return };
        let character = doc.character.as_ref().map(|c| &c.mesh.positions[..]).unwrap_or_default();
        if let (Some(c), Some(_)) = (springmesh_core::Aabb::from_points(character), &m.rig) {
            let both = springmesh_core::Aabb { min: b.min.min(c.min), max: b.max.max(c.max) };
            self.camera.frame(both, self.aspect());
            return;
        }
        let gravity = m.params.gravity;
        if !m.anchors.is_empty() && gravity.length() > 0.0 {
            let size = (b.max - b.min).max_element();
            let reach = gravity.normalize() * size;
            b = springmesh_core::Aabb {
                min: b.min.min(b.min + reach),
                max: b.max.max(b.max + reach),
            };
        }
        self.camera.frame(b, self.aspect());
    }

    /// The view's width over its height (1 before it is first shown).
    fn aspect(&self) -> f32 {
        if self.size.y > 0.0 { self.size.x / self.size.y } else { 1.0 }
    }

    /// Shows the viewport filling `ui`; handles the mouse and paints. Returns the edits and
    /// pulls of node drags.
    pub fn show(&mut self, ui: &mut egui::Ui, doc: &mut Document, live: &Live) -> Vec<Action> {
        let (rect, response) =
            ui.allocate_exact_size(ui.available_size(), egui::Sense::click_and_drag());
        response.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Canvas, true, "3D viewport"));
        self.rect = rect;
        self.size = Vec2::new(rect.width(), rect.height());
        if self.settings.follow
            && let Some(p) = live.positions()
            && !p.is_empty()
        {
            let centre = p.iter().copied().sum::<glam::Vec3A>() / p.len() as f32;
            if centre.is_finite() {
                self.camera.target = centre.into();
            }
        }
        let modifiers = ui.input(|i| i.modifiers);
        let shift = modifiers.shift;
        let delta = response.drag_delta();
        let motion = Vec2::new(delta.x, delta.y);
        let local = |p: egui::Pos2| Vec2::new(p.x - rect.left(), p.y - rect.top());
        let pointer = response.interact_pointer_pos().map(local);
        // The drag starts where the button went down, a few pixels before egui calls it one.
        let pressed_at = ui.input(|i| i.pointer.press_origin()).map(local);
        if response.drag_started_by(egui::PointerButton::Primary)
            && let Some(at) = pressed_at.or(pointer)
        {
            self.drag = self.start_drag(modifiers, at, doc, live);
        }
        let actions =
            self.drag.map(|d| self.go_on(d, &response, pointer, doc, live)).unwrap_or_default();
        if self.drag.is_some() {
            // The drag is not a camera move.
        } else if response.dragged_by(egui::PointerButton::Middle)
            || (shift && response.dragged_by(egui::PointerButton::Primary))
        {
            self.camera.pan(motion, rect.height());
        } else if response.dragged_by(egui::PointerButton::Primary) {
            self.camera.orbit(motion);
        }
        if response.hovered() {
            let scroll = ui.input(|i| i.smooth_scroll_delta.y);
            if scroll != 0.0 {
                self.camera.zoom(scroll / 50.0);
            }
        }
        if response.clicked()
            && let Some(pos) = response.interact_pointer_pos()
        {
            let pixel = Vec2::new(pos.x - rect.left(), pos.y - rect.top());
            let positions = current_positions(doc, live);
            let what = Pickable {
                model: doc.model(),
                positions: &positions,
                nodes: self.settings.nodes,
                kinds: self.settings.kinds,
            };
            match pick(&self.camera, pixel, self.size, &what) {
                Some(item) => doc.selection.pick(item, shift),
                None if !shift => doc.selection.clear(),
                None => {}
            }
        }
        if ui.is_rect_visible(rect) {
            let frame = self.frame(doc, live);
            let stats = self.stats.clone();
            let callback = eframe::egui_glow::CallbackFn::new(move |info, painter| {
                renderer::paint(&info, painter, &frame, &stats);
            });
            ui.painter().add(egui::PaintCallback { rect, callback: Arc::new(callback) });
            let m = doc.model();
            let size = m.bounding_box().map_or(1.0, |b| b.diagonal().max(1e-3));
            // The model's colliders, and those of the character it is worn on, where the playing
            // clip has put their joints (at rest otherwise).
            let mut shapes: Vec<Shape> = m.params.colliders.iter().map(|c| c.shape).collect();
            if let Some(rig) = &m.rig {
                let pose = live.pose().map_or_else(|| rig.rest_pose(), <[_]>::to_vec);
                let skinning = rig.skinning(&pose);
                shapes.extend(rig.colliders.iter().map(|c| {
                    let moved = skinning.get(usize::from(c.joint));
                    moved.map_or(c.collider.shape, |&j| c.collider.shape.transformed(j))
                }));
            }
            outlines::paint(&ui.painter_at(rect), &self.camera, rect, shapes.into_iter(), size);
        }
        if let Some(Drag::Box { start, end }) = self.drag {
            let corner = |p: Vec2| egui::pos2(p.x + rect.left(), p.y + rect.top());
            let area = egui::Rect::from_two_pos(corner(start), corner(end));
            let stroke = egui::Stroke::new(1.0, egui::Color32::YELLOW);
            ui.painter().rect_stroke(area, 0.0, stroke, egui::StrokeKind::Inside);
        }
        actions
    }

    /// The drag that a primary press at `at` (pixels) with `modifiers` starts: Ctrl selects by
    /// box, Alt on a node moves or pulls it; anything else moves the camera.
    fn start_drag(
        &self,
        modifiers: egui::Modifiers,
        at: Vec2,
        doc: &Document,
        live: &Live,
    ) -> Option<Drag> {
        if modifiers.command {
            return Some(Drag::Box { start: at, end: at });
        }
        if !modifiers.alt {
            return None;
        }
        let positions = current_positions(doc, live);
        let what = Pickable {
            model: doc.model(),
            positions: &positions,
            nodes: true,
            kinds: [false; SpringKind::ALL.len()],
        };
        match pick(&self.camera, at, self.size, &what) {
            Some(Item::Node(node)) => Some(Drag::Node { node, moved: false }),
            _ => None,
        }
    }

    /// Carries a drag on by a frame, and ends it when the button is released.
    fn go_on(
        &mut self,
        drag: Drag,
        response: &egui::Response,
        pointer: Option<Vec2>,
        doc: &mut Document,
        live: &Live,
    ) -> Vec<Action> {
        let mut actions = Vec::new();
        let playing = live.playing && live.positions().is_some();
        match drag {
            Drag::Box { start, end } if response.drag_stopped() => {
                let end = pointer.unwrap_or(end);
                let positions = current_positions(doc, live);
                let inside =
                    gesture::nodes_inside(&self.camera, self.size, &positions, (start, end));
                if !response.ctx.input(|i| i.modifiers.shift) {
                    doc.selection.clear();
                }
                doc.selection.nodes.extend(inside);
            }
            Drag::Node { .. } if response.drag_stopped() => {
                if playing {
                    actions.push(Action::Grab(None));
                }
            }
            Drag::Node { node, moved } => {
                let positions = current_positions(doc, live);
                if let (Some(at), Some(&p)) = (pointer, positions.get(node.index())) {
                    let target = gesture::plane_point(&self.camera, at, self.size, p);
                    if playing {
                        actions.push(Action::Grab(Some((node, target))));
                    } else if let Some(old) = doc.model().nodes.get(node) {
                        let edit = Edit::SetNodes(vec![(
                            node,
                            springmesh_core::Node { position: target, ..old },
                        )]);
                        let label = format!("Move node {node}");
                        actions.push(if moved {
                            Action::EditContinued(edit, label)
                        } else {
                            Action::Edit(edit, label)
                        });
                        self.drag = Some(Drag::Node { node, moved: true });
                    }
                }
                return actions;
            }
            Drag::Box { start, end } => {
                self.drag = Some(Drag::Box { start, end: pointer.unwrap_or(end) });
                return actions;
            }
        }
        self.drag = None;
        actions
    }

    /// Prepares what the paint callback draws.
    fn frame(&mut self, doc: &Document, live: &Live) -> DrawFrame {
        let bounds = doc.model().bounding_box();
        let (center, diagonal, lowest) = bounds
            .map_or((Vec3::ZERO, 1.0, 0.0), |b| (b.center(), b.diagonal().max(1e-3), b.min.y));
        let spacing = 10f32.powf((diagonal / 2.0).log10().floor()).max(1e-3);
        let eye_direction = (self.camera.eye() - self.camera.target).normalize_or_zero();
        let light = (eye_direction + Vec3::Y * 0.6).normalize_or(Vec3::Y);
        DrawFrame {
            statics: self.cache.statics(doc, live),
            styles: self.cache.styles(doc, live, self.settings.max_distance_colours),
            dynamic: self.cache.dynamic(doc, live),
            view_projection: self.camera.view_projection(self.size.x / self.size.y.max(1.0)),
            settings: self.settings,
            colors: COLORS,
            grid: GridSpec {
                center: center.to_array(),
                extent: (5.0 * diagonal).max(2.0),
                ground: lowest.min(0.0),
                spacing,
            },
            light: light.to_array(),
            background: BACKGROUND,
        }
    }
}
