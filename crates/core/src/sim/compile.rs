//! Compiling a [`SpringModel`] into the flat arrays the solvers walk ([`crate::sim::data`]):
//! the springs coloured and banded, the triangles coloured, what they enclose, the tethers.

use crate::SpringModel;
use crate::model::Springs;
use crate::parallel::both;
use crate::sim::coloring::{colour_edges, colour_faces};
use crate::sim::data::{
    Bands, Batch, Compiled, Incidence, LONG_OFFSET, NodeData, Posed, SpringData, SurfaceData,
    Tethers, TouchPoints, share_no_node,
};
use crate::sim::forces::pressure::signed_volume;
use crate::sim::forces::shape::rest_offsets;

/// The springs `s` (over `nodes` nodes) in solver order: coloured ([`colour_edges`]), each
/// independent batch's banded springs at its end ([`band`]).
fn springs(s: &Springs, nodes: usize) -> SpringData {
    let raw_a: Vec<u32> = s.a().iter().map(|n| n.0).collect();
    let raw_b: Vec<u32> = s.b().iter().map(|n| n.0).collect();
    let (order, mut batches) = colour_edges(&raw_a, &raw_b, nodes);
    let (bands, order) = band((&raw_a, &raw_b), order, &mut batches);
    let springs = SpringData::new(s, &order, batches, bands);
    debug_assert!(
        share_no_node(springs.a(), springs.b(), &springs.batches, nodes),
        "the batch kernels' unchecked writes need batches whose springs share no node"
    );
    springs
}

/// Puts the springs with ends `a`, `b` in bands where they fit
/// ([`crate::sim::forces::bands`]): returns the bands (lanes naming springs by model index)
/// and the solver order `order` with each independent batch's banded springs moved to its
/// end, those of long bands last (each group in its order), counted in [`Batch::banded`] and
/// [`Batch::striped`].
fn band((a, b): (&[u32], &[u32]), order: Vec<u32>, batches: &mut [Batch]) -> (Bands, Vec<u32>) {
    let mut eligible = vec![false; a.len()];
    for batch in batches.iter().filter(|b| b.independent) {
        for &i in &order[batch.range.clone()] {
            eligible[i as usize] = true;
        }
    }
    let (bands, taken) = Bands::find(a, b, &eligible);
    if bands.is_empty() {
        return (bands, order);
    }
    // 0: not banded, 1: in a short band, 2: in a long one.
    let group = |i: u32| {
        let i = i as usize;
        usize::from(taken[i]) * (1 + usize::from(a[i].abs_diff(b[i]) as usize >= LONG_OFFSET))
    };
    let mut reordered = Vec::with_capacity(order.len());
    for batch in batches.iter_mut() {
        let springs = &order[batch.range.clone()];
        for g in 0..3 {
            reordered.extend(springs.iter().filter(|&&i| group(i) == g));
        }
        batch.banded = springs.iter().filter(|&&i| group(i) > 0).count();
        batch.striped = springs.iter().filter(|&&i| group(i) == 2).count();
    }
    (bands, reordered)
}

/// What the triangles of `model` enclose.
fn surface(model: &SpringModel) -> SurfaceData {
    let p = model.nodes.positions();
    let faces = model.faces.nodes();
    let open_edges = model.open_edges();
    let closed = !faces.is_empty() && open_edges == 0;
    let rest_signed_volume = if closed { signed_volume(p, faces) } else { 0.0 };
    let mut area_share = vec![0.0f32; if faces.is_empty() { 0 } else { p.len() }];
    let mut total = 0.0;
    for &[a, b, c] in faces {
        let third = (p[b.index()] - p[a.index()]).cross(p[c.index()] - p[a.index()]).length() / 6.0;
        for n in [a, b, c] {
            area_share[n.index()] += third;
        }
        total += 3.0 * third;
    }
    if total > 0.0 {
        area_share.iter_mut().for_each(|s| *s /= total);
    }
    SurfaceData {
        closed,
        open_edges,
        sign: if rest_signed_volume < 0.0 { -1.0 } else { 1.0 },
        rest_signed_volume,
        area_share,
    }
}

impl Compiled {
    /// Compiles a model that has passed [`SpringModel::validate`].
    pub fn new(model: &SpringModel) -> Compiled {
        let n = model.nodes.len();
        let mut inv_mass: Vec<f32> = model.nodes.masses().iter().map(|m| 1.0 / m).collect();
        let mut free = vec![1.0; n];
        for a in &model.anchors {
            inv_mass[a.index()] = 0.0;
            free[a.index()] = 0.0;
        }
        let positions = model.nodes.positions();

        // The triangles' part does not depend on the springs': it runs on a second core
        // while the springs are put in solver order.
        let ((faces, surface), springs) = both(
            || (colour_faces(model.faces.nodes(), n), surface(model)),
            || springs(&model.springs, n),
        );
        let anchor_nodes: Vec<u32> = model.anchors.iter().map(|a| a.0).collect();
        let mut compiled = Compiled {
            nodes: NodeData { mass: model.nodes.masses().to_vec(), inv_mass, free },
            tethers: None,
            springs,
            anchors: anchor_nodes,
            edge_rest: Vec::new(),
            edges: Vec::new(),
            edges_at: Incidence::default(),
            faces,
            surface,
            skin: model.skin.clone(),
            touch: model.skin.as_ref().map(|s| TouchPoints::new(s, model.nodes.positions())),
            shape: rest_offsets(model.nodes.positions(), model.nodes.masses()),
            params: model.params.clone(),
            rig: None,
        };
        compiled.rig = model.rig.as_ref().map(|rig| {
            // The body the model is worn on collides as the model's colliders do, after them.
            let base = compiled.params.colliders.len();
            compiled.params.colliders.extend(rig.colliders.iter().map(|c| c.collider));
            let (anchors, free) = (&compiled.anchors[..], &compiled.nodes.free[..]);
            let normals = rest_normals(model);
            Posed::new(rig, (model.nodes.positions(), &normals), (anchors, free), base)
        });
        if compiled.rig.is_some() {
            // A worn cloth's strain is limited along every edge, against its rest length.
            compiled.edges = face_edges(&compiled.faces);
            compiled.edge_rest = (compiled.edges.iter())
                .map(|&[a, b]| positions[a as usize].distance(positions[b as usize]))
                .collect();
            compiled.edges_at = Incidence::new(&compiled.edges, n);
        }
        if compiled.lacks_edges(&compiled.params.colliders) {
            compiled.edges = face_edges(&compiled.faces);
        }
        compiled.ready_tethers();
        compiled
    }

    /// Lists the triangles' edges, once, when a sphere or capsule among `colliders` is there
    /// to keep them out ([`crate::sim::contacts::edges`]): a model that meets none (a prop on
    /// the ground, a large scan loaded for a look) does not sort its edges (a sixth of
    /// compiling a 130,000-triangle cloth). Colliders a game adds later are met from the next
    /// step.
    pub fn ready_edges(&mut self, colliders: &[crate::model::Obstacle]) {
        if self.lacks_edges(colliders) {
            self.edges = face_edges(&self.faces);
        }
    }

    /// True when [`Compiled::ready_edges`] has edges to list for `colliders`.
    pub fn lacks_edges(&self, colliders: &[crate::model::Obstacle]) -> bool {
        let round = |c: &crate::model::Obstacle| {
            matches!(
                c.shape,
                crate::model::Shape::Sphere { .. } | crate::model::Shape::Capsule { .. }
            )
        };
        self.edges.is_empty() && !self.faces.is_empty() && colliders.iter().any(round)
    }

    /// Builds the tethers if the parameters turn them on and they are not built for the
    /// present springs (a model compiled without them, or springs broken since).
    pub fn ready_tethers(&mut self) {
        if self.lacks_tethers() {
            let nodes = self.nodes.mass.len();
            let s = &self.springs;
            let springs = (s.a(), s.b(), &s.rest[..]);
            self.tethers = Some(Tethers::new(nodes, springs, &self.anchors, &self.faces));
        }
    }

    /// True when [`Compiled::ready_tethers`] has tethers to build.
    pub fn lacks_tethers(&self) -> bool {
        self.params.tethers.is_some() && self.tethers.is_none()
    }
}

/// Each node's normal at rest: the sum of its faces' area-weighted normals, normalised (zero
/// for a node on no face).
fn rest_normals(model: &SpringModel) -> Vec<glam::Vec3> {
    let at = model.nodes.positions();
    let mut normals = vec![glam::Vec3::ZERO; at.len()];
    for f in model.faces.nodes() {
        let [a, b, c] = f.map(|n| at.get(n.index()).copied().unwrap_or_default());
        let area_normal = (b - a).cross(c - a);
        for n in f {
            if let Some(sum) = normals.get_mut(n.index()) {
                *sum += area_normal;
            }
        }
    }
    normals.iter().map(|n| n.normalize_or_zero()).collect()
}

/// Every edge of `faces` once, its lower node first, in order.
fn face_edges(faces: &[[crate::NodeId; 3]]) -> Vec<[u32; 2]> {
    let mut edges: Vec<[u32; 2]> = faces
        .iter()
        .flat_map(|&[a, b, c]| [[a.0, b.0], [b.0, c.0], [c.0, a.0]])
        .map(|[a, b]| [a.min(b), a.max(b)])
        .collect();
    edges.sort_unstable();
    edges.dedup();
    edges
}

#[cfg(test)]
mod tests {
    use crate::io;
    use crate::model::{Obstacle, Shape, Surface};
    use crate::{Simulation, ValidModel};
    use glam::Vec3;

    /// A 1 m square of two triangles lying flat 1.1 m up, its springs along
    /// its five edges, with no collider.
    fn square() -> ValidModel {
        let json = br#"{"nodes":[{"position":[-0.5,1.1,-0.5],"mass":0.1},
            {"position":[0.5,1.1,-0.5],"mass":0.1},{"position":[0.5,1.1,0.5],"mass":0.1},
            {"position":[-0.5,1.1,0.5],"mass":0.1}],
            "springs":[{"a":0,"b":1,"stiffness":500},{"a":1,"b":2,"stiffness":500},
            {"a":2,"b":3,"stiffness":500},{"a":3,"b":0,"stiffness":500},
            {"a":0,"b":2,"stiffness":500}],
            "faces":[{"nodes":[0,1,2]},{"nodes":[0,2,3]}]}"#;
        io::decode(json, "square.spring.json".as_ref()).expect("a valid square")
    }

    #[test]
    fn edges_are_listed_when_a_round_collider_comes_and_then_hold_the_cloth() {
        // Compiled without a collider, the square lists no edges. A short thin capsule added
        // under the middle of its diagonal, from (−0.3, 1, −0.3) to (0.3, 1, 0.3), 2 cm thick,
        // is 0.28 m or more from every node; the next step lists the 5 edges, and the
        // diagonal edge catches on the capsule: the square hangs on it, folded, instead of
        // falling past it between its nodes.
        let mut sim = Simulation::new(&square());
        assert!(sim.c.edges.is_empty(), "no collider, no edges");
        let shape = Shape::Capsule {
            a: Vec3::new(-0.3, 1.0, -0.3),
            b: Vec3::new(0.3, 1.0, 0.3),
            radius: 0.02,
        };
        sim.add_obstacle(Obstacle { shape, surface: Surface::default() }).expect("a capsule");
        for _ in 0..60 {
            sim.step(1.0 / 60.0).expect("finite");
        }
        let middle = (sim.positions()[0] + sim.positions()[2]) * 0.5;
        assert!(middle.y > 0.95, "the diagonal rests on the capsule: {middle}");
        assert_eq!(sim.c.edges.len(), 5, "the square's five edges");
    }
}
