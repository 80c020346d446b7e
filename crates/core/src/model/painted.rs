//! The names of the per-vertex values a modeler paints on a mesh for Springmesh (glTF custom
//! attributes, written with a leading underscore as the glTF specification asks): read by the
//! converter, and registered with a game engine's glTF loader so that it knows them too.

/// Anchors: a vertex painted 1 (or above the converter's threshold) is pinned.
pub const PIN: &str = "_PIN";

/// A factor on the stiffness of the springs at the vertex.
pub const STIFFNESS: &str = "_STIFFNESS";

/// A factor on the mass of the vertex's node.
pub const MASS: &str = "_MASS";

/// How far a worn cloth's node may go from its skinned position (m; 0: it follows the skin).
pub const MAX_DISTANCE: &str = "_MAX_DISTANCE";

/// How far behind its skinned position a worn cloth's back-stop sphere begins (m).
pub const BACKSTOP_DISTANCE: &str = "_BACKSTOP_DISTANCE";

/// The radius of a worn cloth's back-stop sphere (m).
pub const BACKSTOP_RADIUS: &str = "_BACKSTOP_RADIUS";

/// Every painted value Springmesh reads, each one float a vertex.
pub const PAINTED: [&str; 6] =
    [PIN, STIFFNESS, MASS, MAX_DISTANCE, BACKSTOP_DISTANCE, BACKSTOP_RADIUS];
