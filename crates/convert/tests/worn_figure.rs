//! Issue 63, acceptance 1 and 2: cloth on a figure with arms and legs that Blender itself
//! rigged, skinned, painted and animated (`tools/blender/figure.py`: 14 bones, its armature
//! object moved and turned in the scene, a body made with a Skin modifier, a cape, a skirt and
//! a scarf; a walk that breaks into a run and stops dead with a turn, and a kick with the legs
//! apart and a jump exported with CUBICSPLINE keys; and the runner, the same figure smaller,
//! elsewhere in its scene, in long garments on a harder run). Each garment is converted with
//! `--mesh` and played with the clip in steps of 1/48 and of 1/24 s, judged at every sample of the
//! clip (24 per second, Blender's default) against Blender's own armature deformation of the
//! same file (the `.pc2` caches beside it):
//!
//! - the kinematic nodes (painted 0, stored as 2.5e-8 or 1e-8 as exporters leave it) within
//!   1 mm of their skinned position;
//! - every other node within its max distance + 1 cm of it (the tests hold the walker's and
//!   the dancer's garments to 5 mm), or past it where a limb holds it out: the acceptance's
//!   "or the documented order's bound". A limb comes before a max distance
//!   (`springmesh_core::sim::constraints::rig`, "Limbs first"): a node that touches one of the
//!   body's spheres or capsules (within `LIMB_CONTACT` of its surface) is not pulled into it,
//!   and slides along it instead. How far such nodes are past their max distances is printed
//!   (`on_limb`), not judged; a node caught on the wrong side of a limb instead shows in its
//!   edges' stretch and its depth in the body, which are;
//! - no node deeper than 1 cm inside the body (Blender's deformed body mesh);
//! - no stretch spring stretched more than 10%;
//! - the garment never through itself;
//! - really simulated: its lowest row ≥ 5 cm off the skin after the figure stops.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // Test code.

mod judge;

use glam::Vec3;
use judge::read_pc2;
use springmesh_convert::character::Character;
use springmesh_convert::import::animation::Clip;
use springmesh_convert::{CharacterMeshes, ConvertOptions, convert_file};
use springmesh_core::model::{Shape, is_kinematic};
use springmesh_core::sim::constraints::rig::LIMB_CONTACT;
use springmesh_core::{Simulation, SpringKind, SpringModel, ValidModel};
use std::path::{Path, PathBuf};

/// The folder of the figures and Blender's deformation of them.
fn characters() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../assets/characters")
}

/// Blender's scene rate.
const FPS: f32 = 24.0;

/// The clip's time at Blender's first frame, frame 1: the exporter writes frame f at f/24 s,
/// and the caches begin there.
const FIRST_FRAME: f32 = 1.0 / FPS;

/// Steps of the simulation per sample: a 48 Hz game, and a 24 Hz one (the walk's dead stop
/// in steps of 1/24 s stretched the cape's hem most before its strain limit had the last word
/// in each sub-step: 11.5%, against 8% at 1/48 s).
const STEPS_PER_SAMPLE: [u32; 2] = [2, 1];

/// The worst of each judged quantity over the run.
#[derive(Debug, Default)]
struct Worst {
    kinematic: f32,
    /// Of the nodes that touch no limb.
    over_max: f32,
    /// Of the nodes a limb holds (the module doc).
    on_limb: f32,
    depth: f32,
    stretch: f32,
    crossings: usize,
    lowest_after_stop: f32,
}

impl Worst {
    /// The criteria of the module doc this run broke, for `case`.
    fn broken(&self, case: &Case) -> Vec<String> {
        let held = case.past_max;
        [
            (self.kinematic >= 1e-3, format!("painted 0s {} m off the skin", self.kinematic)),
            (self.over_max >= held, format!("{} m past the max distances", self.over_max)),
            (self.depth >= 0.01, format!("{} m inside the body", self.depth)),
            (self.stretch >= 0.10, format!("stretched {:.1}%", self.stretch * 100.0)),
            (self.crossings > 0, format!("through itself at {} pairs", self.crossings)),
            (self.lowest_after_stop <= 0.05, "the lowest row still after the stop".into()),
        ]
        .into_iter()
        .filter_map(|(broken, what)| broken.then_some(what))
        .collect()
    }
}

/// A garment of a figure, and the clip it is judged on.
struct Case {
    figure: &'static str,
    clip: &'static str,
    garment: &'static str,
    /// When the figure has stopped (s): the garment's lowest row must swing after it.
    stops: f32,
    /// How far past its max distance a node may go (m): [`HELD`] or [`ACCEPTED`].
    past_max: f32,
}

/// The acceptance's 1 cm past the max distances, held to 5 mm: the max distances come again
/// after the strain limit at each sub-step's end (without, the walker's cape was 8 mm over at
/// the dead stop).
const HELD: f32 = 0.005;

/// The acceptance's 1 cm itself, for the runner's long garments, which its running legs lift:
/// the nodes no limb holds are up to 1.3 mm past their max distances on its cape and 7.4 mm on
/// its scarf in steps of 1/24 s (those a limb holds, 7.5 mm and 2.7 cm).
const ACCEPTED: f32 = 0.01;

/// The garment of `case` as `convert --mesh` makes it, with its body or without.
fn garment(case: &Case, body: bool) -> (SpringModel, ConvertOptions) {
    let options = ConvertOptions {
        mesh: Some(case.garment.into()),
        character: if body { CharacterMeshes::Others } else { CharacterMeshes::Off },
        ..ConvertOptions::default()
    };
    let file = characters().join(format!("{}.glb", case.figure));
    (convert_file(&file, &options).expect("converts").model.into_inner(), options)
}

/// For each of `points`, the index of the point of `blender` at the same place.
fn matched(points: &[Vec3], blender: &[Vec3], what: &str) -> Vec<usize> {
    points
        .iter()
        .map(|p| {
            let nearest = blender
                .iter()
                .enumerate()
                .min_by(|a, b| a.1.distance_squared(*p).total_cmp(&b.1.distance_squared(*p)));
            let (k, at) = nearest.expect("points");
            assert!(at.distance(*p) < 1e-4, "{what} at {p} is a vertex of Blender's mesh");
            k
        })
        .collect()
}

/// Plays the clip on `model` (converted with `options`) for its whole length in `steps` steps
/// a sample, with continuous collision or without, judging every sample.
fn play(
    case: &Case,
    model: &SpringModel,
    options: &ConvertOptions,
    (steps, continuous): (u32, bool),
) -> Worst {
    let dir = characters();
    let glb = dir.join(format!("{}.glb", case.figure));
    let clip = Clip::read(&glb, &std::fs::read(&glb).unwrap(), case.clip).expect("the clip");
    let cache = |mesh: &str| {
        let name = format!("{}_{}_{mesh}.pc2", case.figure, case.clip.to_lowercase());
        read_pc2(&dir.join(name))
    };
    let (skin, body) = (cache(&case.garment.to_lowercase()), cache("body"));
    let character = Character::read(&glb, options).expect("the character");
    // The first sample is the rest pose: the nodes and the body's vertices found in it.
    let vertex = matched(model.nodes.positions(), &skin[0], "a node");
    let body_vertex = matched(&character.mesh.positions, &body[0], "a body vertex");
    let character_faces: Vec<[usize; 3]> =
        character.mesh.triangles.iter().map(|t| t.map(|v| body_vertex[v as usize])).collect();
    let rig = model.rig.clone().expect("a rig");
    let names: Vec<&str> = rig.joints.iter().map(|j| j.name.as_str()).collect();
    let faces: Vec<[usize; 3]> = model.faces.nodes().iter().map(|f| f.map(|n| n.index())).collect();
    let lowest = model.nodes.positions().iter().map(|p| p.y).fold(f32::INFINITY, f32::min);
    let stretch: Vec<(usize, usize, f32)> = model
        .springs
        .iter()
        .filter(|s| s.kind == SpringKind::Stretch)
        .map(|s| (s.a.index(), s.b.index(), s.rest_length))
        .collect();
    let mut sim = Simulation::new(&ValidModel::new(model.clone()).unwrap());
    sim.set_continuous_collision(continuous);
    sim.reset(&clip.pose(FIRST_FRAME, &names).expect("every joint")).expect("a pose");
    let dt = 1.0 / (FPS * steps as f32);
    let mut worst = Worst::default();
    for sample in 1..skin.len() {
        for k in 1..=steps {
            let t = FIRST_FRAME + ((sample - 1) as u32 * steps + k) as f32 * dt;
            sim.set_pose(&clip.pose(t, &names).expect("every joint")).expect("a pose");
            sim.step(dt).expect("finite");
        }
        let at: Vec<Vec3> = sim.positions().iter().map(|&p| p.into()).collect();
        for (i, p) in at.iter().enumerate() {
            let off = p.distance(skin[sample][vertex[i]]);
            match rig.max_distance[i] {
                r if is_kinematic(r) => worst.kinematic = worst.kinematic.max(off),
                Some(r) if on_limb(&sim, *p) => worst.on_limb = worst.on_limb.max(off - r),
                Some(r) => worst.over_max = worst.over_max.max(off - r),
                None => {}
            }
            let time = FIRST_FRAME + sample as f32 / FPS;
            if model.nodes.positions()[i].y < lowest + 0.01 && time >= case.stops {
                worst.lowest_after_stop = worst.lowest_after_stop.max(off);
            }
        }
        let depth = springmesh_core::depth::deepest_inside(&at, (&body[sample], &character_faces));
        worst.depth = worst.depth.max(depth);
        for &(a, b, l) in &stretch {
            let e = at[a].distance(at[b]) / l - 1.0;
            worst.stretch = worst.stretch.max(e);
        }
        worst.crossings = worst.crossings.max(judge::crossing_pairs(&faces, &at));
    }
    worst
}

/// True when `p` is within [`LIMB_CONTACT`] of the surface of one of the spheres or capsules
/// that `sim` collides with (inside one included): a limb holds it.
fn on_limb(sim: &Simulation, p: Vec3) -> bool {
    sim.colliders().iter().any(|o| match o.shape {
        Shape::Sphere { center, radius } => p.distance(center) < radius + LIMB_CONTACT,
        Shape::Capsule { a, b, radius } => {
            let t = (p - a).dot(b - a) / (b - a).length_squared().max(f32::MIN_POSITIVE);
            p.distance(a.lerp(b, t.clamp(0.0, 1.0))) < radius + LIMB_CONTACT
        }
        _ => false,
    })
}

/// Plays `case` with its body (at each of [`STEPS_PER_SAMPLE`]) and without, prints them and
/// asserts the criteria of the module doc (and that the body check can fail).
fn judged(case: &Case) {
    let (model, options) = garment(case, true);
    for steps in STEPS_PER_SAMPLE {
        let worn = play(case, &model, &options, (steps, true));
        println!("{} on {} ({}, {steps} a sample): {worn:?}", case.garment, case.figure, case.clip);
        let broken = worn.broken(case);
        assert!(broken.is_empty(), "{}", broken.join(", "));
    }
    let (bare, options) = garment(case, false);
    let bare = play(case, &bare, &options, (STEPS_PER_SAMPLE[0], true));
    println!("  without its body: {bare:?}");
    assert!(bare.depth > 0.01, "without the body it goes in ({} m)", bare.depth);
}

#[test]
fn a_cape_follows_a_figure_that_walks_runs_stops_dead_and_turns_round() {
    judged(&Case { figure: "walker", clip: "Walk", garment: "Cape", stops: 2.5, past_max: HELD });
}

#[test]
fn a_skirt_rides_up_the_legs_of_a_dancer_who_spreads_them_and_jumps() {
    judged(&Case { figure: "dancer", clip: "Leap", garment: "Skirt", stops: 1.7, past_max: HELD });
}

/// The high kick of the right leg forward to 95°: the thigh lifts the skirt's front rows some
/// 0.45 m from where the hips hold them, so the skirt is painted up to 0.5 m at its hem
/// (`tools/blender/figure.py`), as an artist paints a dancer's. Measured: at 0.5 m, 1 cm past
/// their max distances where the thigh holds the rows (limbs first), none elsewhere, 5 mm in
/// the body, springs within 7.5%. Painted as it was, 0.3 m (or 0.45 m), the max distances
/// forbid where the kick puts the rows: they and the strain limit drew the rows held on the
/// thigh 4.7 cm into it (1.6 cm past their max distances where no limb held them; at 0.45 m,
/// 1.6 cm too, inside by 9 mm); at 0.3 m a kick to 65° held every criterion, to 80° not.
#[test]
fn a_skirt_rides_up_the_leg_of_a_dancer_who_kicks_high() {
    judged(&Case { figure: "dancer", clip: "Kick", garment: "Skirt", stops: 2.3, past_max: HELD });
}

#[test]
fn a_scarf_follows_a_figure_that_walks_runs_stops_dead_and_turns_round() {
    judged(&Case { figure: "walker", clip: "Walk", garment: "Scarf", stops: 2.5, past_max: HELD });
}

// The runner (`tools/blender/figure.py`: the figure at 0.92 of its size, turned and moved
// elsewhere, in a cape down to its shins and a 1 m scarf, running at 4.5 m/s with its thighs
// swinging ±55° before it stops and turns). Its shins flick the cape's hem up into the rows
// above; before self-collision came again at each sub-step's end
// (`springmesh_core::sim::constraints::strain`), the hem crossed them (9 pairs at 1/24 s, 17
// at 1/72 s) and the strain limit drew rows 2.2 cm into a leg at 1/48 s.
//
// It is also the figure that shows what continuous collision holds: without it
// (`Simulation::set_continuous_collision`), its cape goes 3.2 cm into a leg and crosses itself
// at 2 pairs. The walker's and the dancer's garments hold at these steps even without it.
#[test]
fn a_long_cape_follows_a_figure_that_runs_with_long_strides_stops_and_turns() {
    let case =
        Case { figure: "runner", clip: "Walk", garment: "Cape", stops: 2.5, past_max: ACCEPTED };
    judged(&case);
    let (model, options) = garment(&case, true);
    let discrete = play(&case, &model, &options, (STEPS_PER_SAMPLE[0], false));
    println!("  without continuous collision: {discrete:?}");
    let broken = discrete.broken(&case);
    assert!(!broken.is_empty(), "without continuous collision it fails");
}

// A running thigh lifts the long scarf's end over it, 2.4 to 2.7 cm past its max distances:
// the limb comes first (`springmesh_core::sim::constraints::rig`, "Limbs first"), and every
// node more than 1 cm past is within 1 cm of a capsule of the body (0–9 mm measured), so this
// is the order's doing, which the acceptance allows (the module doc). The nodes no limb holds
// stay within 7.4 mm; springs within 7.8%, nodes at most 3.6 mm inside the body, no crossing
// (before self-collision came again at each sub-step's end, 12% and 3 cm inside the body at
// 1/24 s).
#[test]
fn a_long_scarf_follows_a_figure_that_runs_with_long_strides_stops_and_turns() {
    judged(&Case {
        figure: "runner",
        clip: "Walk",
        garment: "Scarf",
        stops: 2.5,
        past_max: ACCEPTED,
    });
}

#[test]
fn painted_zeros_stored_as_float_noise_are_the_same_kinematic_nodes_as_exact_zeros() {
    // The cape's top row is written 2.5e-8, the skirt's waistband 1e-8, the scarf's top 0.
    for (name, expected) in [("Cape", 13), ("Skirt", 28), ("Scarf", 5)] {
        let case =
            Case { figure: "dancer", clip: "Kick", garment: name, stops: 0.0, past_max: HELD };
        let (model, _) = garment(&case, true);
        let rig = model.rig.as_ref().expect("worn");
        let holds = rig.holds();
        assert_eq!(holds.kinematic, expected, "{name}: {holds:?}");
        assert!(rig.max_distance.iter().all(|r| r.is_none_or(|r| r == 0.0 || r >= 1e-3)));
        assert_eq!(model.anchors.len(), expected, "{name}: the kinematic nodes are anchors");
    }
}
