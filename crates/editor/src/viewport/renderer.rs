//! The GPU side of the viewport, drawn with three-d inside egui's glow paint callback.
//!
//! The renderer is created on first paint from egui's GL context and lives in a thread-local
//! (paint callbacks run on the UI thread), so the app state stays free of GL objects and the
//! egui parts run in tests without a GPU. Each frame it uploads only the arrays whose version
//! changed, clears the viewport's rectangle (not the whole window: that would wipe the
//! panels), and draws the ground grid, the faces, the springs and the nodes.

use super::geometry::{Dynamic, ROW, Statics, Styles};
use super::shaders;
use super::{DrawFrame, RenderStats, SpringColour};
use eframe::egui;
use eframe::egui_glow::Painter;
use std::cell::RefCell;
use std::sync::Mutex;
use std::time::Instant;
use three_d::{
    Blend, ClearState, Context, Cull, DepthTest, InstanceBuffer, Interpolation, Program,
    RenderStates, RenderTarget, ScissorBox, Texture2D, VertexBuffer, Viewport, Wrapping, WriteMask,
};

thread_local! {
    static RENDERER: RefCell<Option<Result<Renderer, String>>> = const { RefCell::new(None) };
}

/// Draws `frame` into the viewport rectangle of `info` (called from the paint callback).
pub fn paint(
    info: &egui::PaintCallbackInfo,
    painter: &Painter,
    frame: &DrawFrame,
    stats: &Mutex<RenderStats>,
) {
    let outcome = RENDERER.with_borrow_mut(|slot| {
        let renderer = slot.get_or_insert_with(|| Renderer::new(painter));
        match renderer {
            Ok(r) => {
                let started = Instant::now();
                r.upload(&frame.statics, &frame.styles, &frame.dynamic);
                let uploaded = Instant::now();
                r.draw(info, frame);
                Ok((uploaded - started, uploaded.elapsed()))
            }
            Err(e) => Err(e.clone()),
        }
    });
    if let Ok(mut s) = stats.lock() {
        match outcome {
            Ok((upload, draw)) => {
                s.upload_ms = upload.as_secs_f32() * 1e3;
                s.draw_ms = draw.as_secs_f32() * 1e3;
                s.error = None;
            }
            Err(e) => s.error = Some(e),
        }
    }
}

/// Geometry on the GPU, with the version it was uploaded from.
struct Uploaded<T> {
    version: u64,
    data: T,
}

struct StaticBuffers {
    node_ids: Option<InstanceBuffer<f32>>,
    spring_ends: Option<InstanceBuffer<[f32; 2]>>,
    face_nodes: Option<VertexBuffer<f32>>,
    face_uvs: Option<VertexBuffer<[f32; 2]>>,
    texture: Option<Texture2D>,
    character_faces: Option<VertexBuffer<f32>>,
    character_uvs: Option<VertexBuffer<[f32; 2]>>,
}

struct StyleBuffers {
    springs: Option<InstanceBuffer<[f32; 4]>>,
    nodes: Option<InstanceBuffer<f32>>,
}

struct Textures {
    positions: Texture2D,
    normals: Option<Texture2D>,
}

struct Renderer {
    context: Context,
    faces: Program,
    springs: Program,
    nodes: Program,
    grid: Program,
    /// Corners of a spring quad: (t along the spring, side).
    strip: VertexBuffer<[f32; 2]>,
    /// Corners of a unit square, for node billboards and the ground.
    square: VertexBuffer<[f32; 2]>,
    /// A 1 × 1 white texture for untextured faces.
    white: Texture2D,
    statics: Option<Uploaded<StaticBuffers>>,
    styles: Option<Uploaded<StyleBuffers>>,
    textures: Option<Uploaded<Textures>>,
}

/// Two triangles covering a quad given by its four corners in order.
fn quad(corners: [[f32; 2]; 4]) -> [[f32; 2]; 6] {
    [corners[0], corners[1], corners[2], corners[0], corners[2], corners[3]]
}

/// `Some(buffer)` for a non-empty slice (three-d draws nothing from empty buffers anyway).
fn instances<T: three_d::BufferDataType>(
    context: &Context,
    data: &[T],
) -> Option<InstanceBuffer<T>> {
    (!data.is_empty()).then(|| InstanceBuffer::new_with_data(context, data))
}

fn vertices<T: three_d::BufferDataType>(context: &Context, data: &[T]) -> Option<VertexBuffer<T>> {
    (!data.is_empty()).then(|| VertexBuffer::new_with_data(context, data))
}

/// A float texture of `row`-wide rows holding `data`.
fn data_texture(context: &Context, data: &[[f32; 4]]) -> Texture2D {
    let height = (data.len() / ROW).max(1) as u32;
    let texture = Texture2D::new_empty::<[f32; 4]>(
        context,
        ROW as u32,
        height,
        Interpolation::Nearest,
        Interpolation::Nearest,
        None,
        Wrapping::ClampToEdge,
        Wrapping::ClampToEdge,
    );
    texture.fill(data);
    texture
}

/// egui's pixel rectangle as a GL one (origin bottom left).
fn gl_rect(r: egui::epaint::ViewportInPixels) -> Viewport {
    Viewport {
        x: r.left_px,
        y: r.from_bottom_px,
        width: r.width_px as u32,
        height: r.height_px as u32,
    }
}

fn mat4(m: glam::Mat4) -> three_d::Mat4 {
    three_d::Mat4::from(m.to_cols_array_2d())
}

fn vec4(v: [f32; 4]) -> three_d::Vec4 {
    three_d::Vec4::from(v)
}

impl Renderer {
    fn new(painter: &Painter) -> Result<Renderer, String> {
        let context = Context::from_gl_context(painter.gl().clone()).map_err(|e| e.to_string())?;
        let program = |(v, f): (String, String)| {
            Program::from_source(&context, &v, &f).map_err(|e| e.to_string())
        };
        let unit = [[-1.0, -1.0], [1.0, -1.0], [1.0, 1.0], [-1.0, 1.0]];
        let white = Texture2D::new_empty::<[u8; 4]>(
            &context,
            1,
            1,
            Interpolation::Nearest,
            Interpolation::Nearest,
            None,
            Wrapping::Repeat,
            Wrapping::Repeat,
        );
        white.fill(&[[255u8; 4]]);
        Ok(Renderer {
            faces: program(shaders::faces())?,
            springs: program(shaders::springs())?,
            nodes: program(shaders::nodes())?,
            grid: program(shaders::grid())?,
            strip: VertexBuffer::new_with_data(
                &context,
                &quad([[0.0, -1.0], [1.0, -1.0], [1.0, 1.0], [0.0, 1.0]]),
            ),
            square: VertexBuffer::new_with_data(&context, &quad(unit)),
            white,
            statics: None,
            styles: None,
            textures: None,
            context,
        })
    }

    /// Uploads what changed since the last frame.
    fn upload(&mut self, statics: &Statics, styles: &Styles, dynamic: &Dynamic) {
        let c = &self.context;
        if self.statics.as_ref().is_none_or(|s| s.version != statics.version) {
            let texture = statics.texture.as_ref().map(|image| {
                let t = Texture2D::new_empty::<[u8; 4]>(
                    c,
                    image.width,
                    image.height,
                    Interpolation::Linear,
                    Interpolation::Linear,
                    None,
                    Wrapping::Repeat,
                    Wrapping::Repeat,
                );
                let pixels: Vec<[u8; 4]> =
                    image.rgba.chunks_exact(4).map(|p| [p[0], p[1], p[2], p[3]]).collect();
                t.fill(&pixels);
                t
            });
            self.statics = Some(Uploaded {
                version: statics.version,
                data: StaticBuffers {
                    node_ids: instances(c, &statics.node_ids),
                    spring_ends: instances(c, &statics.spring_ends),
                    face_nodes: vertices(c, &statics.face_nodes),
                    face_uvs: vertices(c, &statics.face_uvs),
                    texture,
                    character_faces: vertices(c, &statics.character_faces),
                    character_uvs: vertices(c, &statics.character_uvs),
                },
            });
        }
        if self.styles.as_ref().is_none_or(|s| s.version != styles.version) {
            self.styles = Some(Uploaded {
                version: styles.version,
                data: StyleBuffers {
                    springs: instances(c, &styles.springs),
                    nodes: instances(c, &styles.nodes),
                },
            });
        }
        if self.textures.as_ref().is_none_or(|t| t.version != dynamic.version) {
            let normals = (!dynamic.normals.is_empty()).then(|| data_texture(c, &dynamic.normals));
            self.textures = Some(Uploaded {
                version: dynamic.version,
                data: Textures { positions: data_texture(c, &dynamic.positions), normals },
            });
        }
    }

    fn draw(&mut self, info: &egui::PaintCallbackInfo, frame: &DrawFrame) {
        let viewport = gl_rect(info.viewport_in_pixels());
        let scissor = ScissorBox::from(gl_rect(info.clip_rect_in_pixels()));
        let [w, h] = info.screen_size_px;
        let [r, g, b, a] = frame.background;
        RenderTarget::screen(&self.context, w, h)
            .clear_partially(scissor, ClearState::color_and_depth(r, g, b, a, 1.0));
        self.context.set_scissor(scissor);
        let (Some(statics), Some(styles), Some(textures)) =
            (&self.statics, &self.styles, &self.textures)
        else {
            return;
        };
        let (statics, styles, textures) = (&statics.data, &styles.data, &textures.data);
        let view_projection = mat4(frame.view_projection);
        let size = three_d::vec2(viewport.width as f32, viewport.height as f32);
        let opaque = RenderStates {
            write_mask: WriteMask::COLOR_AND_DEPTH,
            depth_test: DepthTest::LessOrEqual,
            blend: Blend::Disabled,
            cull: Cull::None,
        };
        let row = ROW as i32;
        let use_positions = |p: &Program| {
            if p.requires_uniform("u_positions") {
                p.use_texture("u_positions", &textures.positions);
            }
            p.use_uniform_if_required("u_row", row);
            p.use_uniform_if_required("u_view_projection", view_projection);
            p.use_uniform_if_required("u_viewport", size);
        };

        if frame.settings.grid {
            let p = &self.grid;
            p.use_uniform_if_required("u_view_projection", view_projection);
            p.use_uniform_if_required("u_center", three_d::Vec3::from(frame.grid.center));
            p.use_uniform_if_required("u_extent", frame.grid.extent);
            p.use_uniform_if_required("u_ground", frame.grid.ground);
            p.use_uniform_if_required("u_spacing", frame.grid.spacing);
            p.use_uniform_if_required("u_grid_color", vec4(frame.colors.grid));
            p.use_vertex_attribute("a_corner", &self.square);
            let states =
                RenderStates { write_mask: WriteMask::COLOR, blend: Blend::TRANSPARENCY, ..opaque };
            p.draw_arrays(states, viewport, 6);
        }

        // The model's faces (textured when it has a texture), then the character.
        let surfaces = [
            (
                frame.settings.faces,
                &statics.face_nodes,
                &statics.face_uvs,
                statics.texture.as_ref(),
                frame.colors.faces,
            ),
            (
                frame.settings.character,
                &statics.character_faces,
                &statics.character_uvs,
                None,
                frame.colors.character,
            ),
        ];
        for (shown, corners, uvs, texture, color) in surfaces {
            let (true, Some(corners), Some(uvs), Some(normals)) =
                (shown, corners, uvs, &textures.normals)
            else {
                continue;
            };
            let p = &self.faces;
            use_positions(p);
            if p.requires_uniform("u_normals") {
                p.use_texture("u_normals", normals);
            }
            if p.requires_uniform("u_texture") {
                p.use_texture("u_texture", texture.unwrap_or(&self.white));
            }
            p.use_uniform_if_required("u_textured", if texture.is_some() { 1.0f32 } else { 0.0 });
            p.use_uniform_if_required("u_light", three_d::Vec3::from(frame.light));
            p.use_uniform_if_required("u_color", vec4(color));
            p.use_vertex_attribute("a_node", corners);
            if p.requires_attribute("a_uv") {
                p.use_vertex_attribute("a_uv", uvs);
            }
            p.draw_arrays(opaque, viewport, corners.count());
        }

        if let (Some(ends), Some(style)) = (&statics.spring_ends, &styles.springs) {
            let p = &self.springs;
            use_positions(p);
            p.use_uniform_if_required("u_width", frame.settings.line_width);
            if p.requires_uniform("u_kind_colors") {
                p.use_uniform_array("u_kind_colors", &frame.colors.kinds.map(vec4));
            }
            if p.requires_uniform("u_kind_visible") {
                p.use_uniform_array("u_kind_visible", &frame.settings.kind_mask());
            }
            let mode = match frame.settings.colour {
                SpringColour::Kind => 0.0f32,
                SpringColour::Strain => 1.0,
                SpringColour::Energy => 2.0,
            };
            p.use_uniform_if_required("u_colour_mode", mode);
            p.use_uniform_if_required("u_strain_scale", frame.settings.strain_scale);
            p.use_uniform_if_required("u_energy_scale", frame.settings.energy_scale);
            p.use_uniform_if_required("u_selected_color", vec4(frame.colors.selected));
            p.use_vertex_attribute("a_corner", &self.strip);
            p.use_instance_attribute("i_ends", ends);
            p.use_instance_attribute("i_style", style);
            p.draw_arrays_instanced(opaque, viewport, 6, ends.count());
        }

        if let (true, Some(ids), Some(state)) =
            (frame.settings.nodes, &statics.node_ids, &styles.nodes)
        {
            let p = &self.nodes;
            use_positions(p);
            p.use_uniform_if_required("u_radius", frame.settings.node_radius);
            p.use_uniform_if_required("u_node_color", vec4(frame.colors.node));
            p.use_uniform_if_required("u_anchor_color", vec4(frame.colors.anchor));
            p.use_uniform_if_required("u_interior_color", vec4(frame.colors.interior));
            p.use_uniform_if_required(
                "u_show_interior",
                f32::from(u8::from(frame.settings.interior_nodes)),
            );
            p.use_uniform_if_required("u_selected_color", vec4(frame.colors.selected));
            p.use_uniform_if_required("u_current_color", vec4(frame.colors.current));
            p.use_uniform_if_required(
                "u_level_mode",
                f32::from(u8::from(frame.settings.max_distance_colours)),
            );
            p.use_vertex_attribute("a_corner", &self.square);
            p.use_instance_attribute("i_node", ids);
            p.use_instance_attribute("i_state", state);
            p.draw_arrays_instanced(opaque, viewport, 6, ids.count());
        }
    }
}
