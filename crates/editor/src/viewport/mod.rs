//! The 3D viewport: camera controls, picking, and the paint callback that draws the model.
//!
//! Left drag orbits, middle drag or Shift + left drag pans, the wheel zooms; a click picks the
//! node or spring under the mouse (Shift adds to the selection), a click on nothing clears it.
//! Drawing happens on the GPU in [`renderer`]; what to draw is prepared in [`geometry`].

pub mod geometry;
mod renderer;
mod shaders;

use crate::camera::OrbitCamera;
use crate::document::Document;
use crate::live::Live;
use crate::picking::{Pickable, pick};
use eframe::egui;
use geometry::{Dynamic, GeometryCache, Statics, Styles, current_positions};
use glam::{Mat4, Vec2, Vec3};
use springmesh_core::SpringKind;
use std::sync::{Arc, Mutex};

/// What the viewport shows.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ViewSettings {
    /// Shaded faces.
    pub faces: bool,
    /// Node points.
    pub nodes: bool,
    /// Springs of each kind, in the order of [`SpringKind::ALL`].
    pub kinds: [bool; 4],
    /// The ground grid.
    pub grid: bool,
    /// Colour springs by strain instead of by kind.
    pub strain: bool,
    /// Strain (fraction of the rest length) shown at full colour.
    pub strain_scale: f32,
    /// Spring width, pixels.
    pub line_width: f32,
    /// Node radius, pixels.
    pub node_radius: f32,
}

impl Default for ViewSettings {
    fn default() -> Self {
        Self {
            faces: true,
            nodes: true,
            kinds: [true; 4],
            grid: true,
            strain: false,
            strain_scale: 0.1,
            line_width: 1.5,
            node_radius: 3.5,
        }
    }
}

impl ViewSettings {
    /// The kind toggles as floats for the shader.
    pub fn kind_mask(&self) -> [f32; 4] {
        self.kinds.map(|k| f32::from(u8::from(k)))
    }
}

/// The viewport's colours (linear RGBA).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Colors {
    /// Per spring kind, in the order of [`SpringKind::ALL`].
    pub kinds: [[f32; 4]; 4],
    pub faces: [f32; 4],
    pub node: [f32; 4],
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
    ],
    faces: [0.55, 0.57, 0.62, 1.0],
    node: [0.85, 0.85, 0.85, 1.0],
    anchor: [1.0, 0.25, 0.2, 1.0],
    selected: [1.0, 0.9, 0.1, 1.0],
    current: [1.0, 1.0, 1.0, 1.0],
    grid: [0.6, 0.6, 0.65, 0.55],
};

/// The colour of a spring kind, for legends.
pub fn kind_color(kind: SpringKind) -> egui::Color32 {
    let [r, g, b, _] = COLORS.kinds[kind as usize];
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
        }
    }
}

impl Viewport {
    /// Points the camera at the whole model.
    pub fn frame_all(&mut self, doc: &Document, live: &Live) {
        let positions = current_positions(doc, live);
        if let Some(b) = springmesh_core::Aabb::from_points(&positions) {
            self.camera.frame(b);
        }
    }

    /// Points the camera at a model just opened, and at the room it will hang into: a model
    /// held by anchors under gravity swings down by up to its own size.
    pub fn frame_opened(&mut self, doc: &Document) {
        let m = doc.model();
        let Some(mut b) = m.bounding_box() else { return };
        let gravity = m.params.gravity;
        if !m.anchors.is_empty() && gravity.length() > 0.0 {
            let size = (b.max - b.min).max_element();
            let reach = gravity.normalize() * size;
            b = springmesh_core::Aabb {
                min: b.min.min(b.min + reach),
                max: b.max.max(b.max + reach),
            };
        }
        self.camera.frame(b);
    }

    /// Shows the viewport filling `ui`; handles the mouse and paints.
    pub fn show(&mut self, ui: &mut egui::Ui, doc: &mut Document, live: &Live) {
        let (rect, response) =
            ui.allocate_exact_size(ui.available_size(), egui::Sense::click_and_drag());
        response.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Canvas, true, "3D viewport"));
        self.rect = rect;
        self.size = Vec2::new(rect.width(), rect.height());
        let shift = ui.input(|i| i.modifiers.shift);
        let delta = response.drag_delta();
        let motion = Vec2::new(delta.x, delta.y);
        if response.dragged_by(egui::PointerButton::Middle)
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
        }
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
            styles: self.cache.styles(doc, live),
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
