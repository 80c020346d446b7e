//! GLSL of the viewport (three-d prepends `#version 330 core` or `300 es`).
//!
//! Node positions (and vertex normals) live in float textures, one texel per node, 1024 texels
//! a row. Faces, springs and nodes fetch them by node index, so while a simulation runs only
//! those two textures change; the per-spring and per-face data stays on the GPU.
//!
//! three-d's `Texture2D::fill` flips rows (its textures have v = 0 at the bottom), so node `i`
//! sits in row `height − 1 − i / 1024`, and a model's top-down texture coordinate v samples at
//! `1 − v`.

use springmesh_core::SpringKind;

/// Fetching a node's texel; shared by the vertex shaders.
const FETCH: &str = r"
uniform sampler2D u_positions;
uniform int u_row;
ivec2 texel(float index) {
    int i = int(index + 0.5);
    int rows = textureSize(u_positions, 0).y;
    return ivec2(i % u_row, rows - 1 - i / u_row);
}
vec3 node_position(float index) {
    return texelFetch(u_positions, texel(index), 0).xyz;
}
";

/// Shaded, optionally textured, two-sided triangles.
pub fn faces() -> (String, String) {
    let vertex = format!(
        "{FETCH}
uniform mat4 u_view_projection;
uniform sampler2D u_normals;
in float a_node;
in vec2 a_uv;
out vec3 v_normal;
out vec2 v_uv;
void main() {{
    vec3 p = node_position(a_node);
    v_normal = texelFetch(u_normals, texel(a_node), 0).xyz;
    v_uv = a_uv;
    gl_Position = u_view_projection * vec4(p, 1.0);
}}"
    );
    let fragment = r"
uniform vec3 u_light;
uniform vec4 u_color;
uniform sampler2D u_texture;
uniform float u_textured;
in vec3 v_normal;
in vec2 v_uv;
out vec4 out_color;
void main() {
    float len = length(v_normal);
    vec3 n = len > 0.0 ? v_normal / len : vec3(0.0, 1.0, 0.0);
    if (!gl_FrontFacing) n = -n;
    float diffuse = max(dot(n, u_light), 0.0);
    vec3 base = mix(u_color.rgb, texture(u_texture, vec2(v_uv.x, 1.0 - v_uv.y)).rgb, u_textured);
    out_color = vec4(base * (0.35 + 0.65 * diffuse), u_color.a);
}"
    .to_string();
    (vertex, fragment)
}

/// Springs as screen-space quads, `u_width` pixels wide, coloured by kind, strain or stored
/// energy (`u_colour_mode` 0, 1, 2); broken springs and hidden kinds (unless selected) are
/// moved off screen. `i_style` is (kind, rest length, selected + 2 × broken, stiffness).
pub fn springs() -> (String, String) {
    const KINDS: usize = SpringKind::ALL.len();
    let vertex = format!(
        "{FETCH}
uniform mat4 u_view_projection;
uniform vec2 u_viewport;
uniform float u_width;
uniform vec4 u_kind_colors[{KINDS}];
uniform float u_kind_visible[{KINDS}];
uniform float u_colour_mode;
uniform float u_strain_scale;
uniform float u_energy_scale;
uniform vec4 u_selected_color;
in vec2 a_corner;
in vec2 i_ends;
in vec4 i_style;
out vec4 v_color;
vec3 strain_color(float strain) {{
    float s = clamp(strain / u_strain_scale, -1.0, 1.0);
    vec3 white = vec3(0.95);
    return s < 0.0 ? mix(white, vec3(0.15, 0.35, 1.0), -s) : mix(white, vec3(1.0, 0.15, 0.1), s);
}}
void main() {{
    int kind = int(i_style.x + 0.5);
    vec3 pa = node_position(i_ends.x);
    vec3 pb = node_position(i_ends.y);
    vec4 ca = u_view_projection * vec4(pa, 1.0);
    vec4 cb = u_view_projection * vec4(pb, 1.0);
    bool selected = mod(i_style.z, 2.0) > 0.5;
    bool broken = i_style.z > 1.5;
    if (broken || u_kind_visible[kind] < 0.5 && !selected || ca.w <= 0.0 || cb.w <= 0.0) {{
        gl_Position = vec4(2.0, 2.0, 2.0, 1.0);
        v_color = vec4(0.0);
        return;
    }}
    vec2 sa = ca.xy / ca.w * u_viewport;
    vec2 sb = cb.xy / cb.w * u_viewport;
    vec2 along = sb - sa;
    vec2 dir = length(along) > 1e-6 ? normalize(along) : vec2(1.0, 0.0);
    vec4 c = mix(ca, cb, a_corner.x);
    float width = selected ? 2.5 * u_width : u_width;
    vec2 offset = vec2(-dir.y, dir.x) * a_corner.y * width / u_viewport;
    gl_Position = c + vec4(offset * c.w, -2e-4 * c.w, 0.0);
    float stretch = length(pb - pa) - i_style.y;
    float energy = 0.5 * i_style.w * stretch * stretch;
    vec3 color = u_kind_colors[kind].rgb;
    if (u_colour_mode > 1.5) {{
        color = mix(vec3(0.95), vec3(1.0, 0.15, 0.1), sqrt(clamp(energy / u_energy_scale, 0.0, 1.0)));
    }} else if (u_colour_mode > 0.5) {{
        color = strain_color(stretch / max(i_style.y, 1e-9));
    }}
    v_color = selected ? u_selected_color : vec4(color, 1.0);
}}"
    );
    let fragment = r"
in vec4 v_color;
out vec4 out_color;
void main() {
    out_color = v_color;
}"
    .to_string();
    (vertex, fragment)
}

/// Nodes as round billboards; anchors as larger squares; selected nodes larger still, the
/// current node with a ring; interior nodes (on no face) in their own colour, hidden unless
/// `u_show_interior` (or selected). `i_state` is `anchored + 2 × selection + 8 × interior +
/// 16 × level` with selection 0 (none), 1 (selected) or 2 (current) and level 0 (none) or
/// 1 + 0..255: with `u_level_mode` 0 the node's error in the stability check, green (none)
/// through yellow to red; with 1 its max distance over the model's largest, cyan (short)
/// to magenta (the largest) ([`super::DISTANCE_RAMP`]).
pub fn nodes() -> (String, String) {
    let vertex = format!(
        "{FETCH}
uniform mat4 u_view_projection;
uniform vec2 u_viewport;
uniform float u_radius;
uniform float u_show_interior;
in vec2 a_corner;
in float i_node;
in float i_state;
out vec2 v_corner;
flat out int v_state;
flat out float v_error;
void main() {{
    vec4 c = u_view_projection * vec4(node_position(i_node), 1.0);
    v_corner = a_corner;
    int all = int(i_state + 0.5);
    v_state = all & 15;
    v_error = (all >> 4) > 0 ? float((all >> 4) - 1) / 255.0 : -1.0;
    bool anchored = (v_state & 1) == 1;
    int selection = (v_state >> 1) & 3;
    bool interior = (v_state & 8) == 8;
    if (interior && u_show_interior < 0.5 && selection == 0) {{
        gl_Position = vec4(2.0, 2.0, 2.0, 1.0);
        return;
    }}
    float scale = selection > 0 ? 1.6 : (anchored ? 1.3 : 1.0);
    gl_Position = c + vec4(a_corner * u_radius * scale / u_viewport * c.w, -4e-4 * c.w, 0.0);
}}"
    );
    let [short, long] = super::DISTANCE_RAMP.map(|[r, g, b]| format!("vec3({r:?}, {g:?}, {b:?})"));
    let ramp = format!("const vec3 u_short = {short};\nconst vec3 u_long = {long};\n");
    let fragment = ramp
        + r"
uniform float u_level_mode;
uniform vec4 u_node_color;
uniform vec4 u_anchor_color;
uniform vec4 u_interior_color;
uniform vec4 u_selected_color;
uniform vec4 u_current_color;
in vec2 v_corner;
flat in int v_state;
flat in float v_error;
out vec4 out_color;
void main() {
    bool anchored = (v_state & 1) == 1;
    int selection = (v_state >> 1) & 3;
    float r = length(v_corner);
    if (!anchored && r > 1.0) discard;
    vec4 color = anchored ? u_anchor_color : ((v_state & 8) == 8 ? u_interior_color : u_node_color);
    if (v_error >= 0.0) {
        color = u_level_mode > 0.5
            ? vec4(mix(u_short, u_long, v_error), 1.0)
            : vec4(min(2.0 * v_error, 1.0), min(2.0 - 2.0 * v_error, 1.0), 0.1, 1.0);
    }
    if (selection == 1) color = u_selected_color;
    if (selection == 2) color = r > 0.6 ? u_current_color : u_selected_color;
    out_color = color;
}";
    (vertex, fragment)
}

/// A ground grid on a large quad at height `u_ground`, fading out with distance.
pub fn grid() -> (String, String) {
    let vertex = r"
uniform mat4 u_view_projection;
uniform vec3 u_center;
uniform float u_extent;
uniform float u_ground;
in vec2 a_corner;
out vec3 v_world;
void main() {
    v_world = vec3(u_center.x + a_corner.x * u_extent, u_ground, u_center.z + a_corner.y * u_extent);
    gl_Position = u_view_projection * vec4(v_world, 1.0);
}"
    .to_string();
    let fragment = r"
uniform vec3 u_center;
uniform float u_extent;
uniform float u_spacing;
uniform vec4 u_grid_color;
in vec3 v_world;
out vec4 out_color;
void main() {
    vec2 coord = v_world.xz / u_spacing;
    vec2 lines = abs(fract(coord - 0.5) - 0.5) / fwidth(coord);
    float line = 1.0 - min(min(lines.x, lines.y), 1.0);
    float fade = 1.0 - smoothstep(0.4 * u_extent, u_extent, length(v_world.xz - u_center.xz));
    out_color = vec4(u_grid_color.rgb, u_grid_color.a * line * fade);
}"
    .to_string();
    (vertex, fragment)
}
