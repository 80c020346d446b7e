//! What the model's triangles enclose, worked out once when it compiles.

/// What the triangles enclose, worked out once.
#[derive(Clone, Debug)]
pub(crate) struct SurfaceData {
    /// The triangles close a volume (see [`crate::SpringModel::is_closed`]).
    pub closed: bool,
    /// Directed triangle edges without their opposite ([`crate::SpringModel::open_edges`]).
    pub open_edges: usize,
    /// +1 when a closed surface is wound outwards, −1 inwards (+1 when open).
    pub sign: f32,
    /// Signed volume at the rest positions (m³; 0 when open).
    pub rest_signed_volume: f32,
    /// Each node's share of the rest area: a third of each adjacent triangle's area over the
    /// total (sums to 1; empty without faces).
    pub area_share: Vec<f32>,
}
