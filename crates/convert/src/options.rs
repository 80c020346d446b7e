//! What a conversion makes: which springs, how stiff, how heavy, how much welding.
//!
//! Defaults are chosen for a model of sample size (a metre across, a few hundred nodes)
//! simulated with the default Xpbd integrator at 60 Hz, which is stable at any stiffness: stiff
//! enough that cloth does not look like rubber, soft enough that bending stays visible.
//! Measured on a 25 × 25 node, 1 m cloth (the cloth sample without its quad shear) hanging
//! from two corners at rest: the stretch springs stretch 0.10% on average and 4.4% at the two
//! corners, which carry the whole weight (40 × 40 nodes: 0.26% and 16%; with 1000 N/m and 10 g
//! nodes it was 1.1% and 46%). Heavier or finer meshes want stiffer springs or lighter nodes.

use crate::ImportLimits;
use crate::masses::MassMode;
use crate::painted::PinColor;
use crate::solid::SolidOptions;
use serde::Serialize;
use std::collections::BTreeMap;

/// Stiffness and damping of one kind of spring.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct SpringSettings {
    /// Stiffness k (N/m).
    pub stiffness: f32,
    /// Damping along the spring (N·s/m).
    pub damping: f32,
}

/// Default stretch springs: 5000 N/m (see the module docs for what that gives).
pub const DEFAULT_STRETCH: SpringSettings = SpringSettings { stiffness: 5000.0, damping: 0.05 };
/// Default bend springs: a tenth of stretch, so surfaces fold but do not crumple.
pub const DEFAULT_BEND: SpringSettings = SpringSettings { stiffness: 500.0, damping: 0.02 };
/// Default vicinity springs: half of stretch; they hold volume and shape, not the surface.
pub const DEFAULT_VICINITY: SpringSettings = SpringSettings { stiffness: 2500.0, damping: 0.05 };
/// Default node mass: 2 g (a 1 m² cloth of 625 nodes weighs 1.25 kg, like heavy canvas).
pub const DEFAULT_NODE_MASS: f32 = 0.002;
/// Default weld tolerance relative to the bounding-box diagonal: 1e-6, far below any
/// modelled detail and well above the rounding of exported coordinates.
pub const DEFAULT_RELATIVE_WELD: f32 = 1e-6;
/// The smallest node budget of a solid: a cage of fewer nodes is a handful of tetrahedra
/// that no longer follows the mesh's shape.
pub const MIN_CAGE_NODES: usize = 16;

/// Everything that decides what a conversion makes.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ConvertOptions {
    /// Make bend springs across pairs of triangles that share an edge.
    pub bend: bool,
    /// Make vicinity springs between nodes at most this far apart (m); `None`: none.
    pub vicinity_radius: Option<f32>,
    /// Keep at most this many nearest vicinity partners per node; `None`: all within the radius.
    pub vicinity_cap: Option<usize>,
    /// Give every quad of the source mesh both diagonals (shear springs, of stretch kind).
    pub quad_shear: bool,
    /// Stretch springs (and shear diagonals).
    pub stretch: SpringSettings,
    /// Bend springs.
    pub bend_springs: SpringSettings,
    /// Vicinity springs.
    pub vicinity: SpringSettings,
    /// Node masses.
    pub mass: MassMode,
    /// Distance (m) within which vertices become one node; `None`: 1e-6 of the bounding-box
    /// diagonal; `Some(0.0)`: only identical positions.
    pub weld_tolerance: Option<f32>,
    /// Factor applied to the mesh's coordinates before anything else (a mesh modelled in
    /// centimetres wants 0.01); distances in the other options are after scaling.
    pub scale: f32,
    /// Fill the inside with a lattice of interior springs ([`crate::solid`]); `None`: the
    /// surface only. With it, every spring's stiffness and damping come from the material
    /// (the stretch and bend settings are not used; vicinity springs keep theirs).
    pub solid: Option<SolidOptions>,
    /// Anchors from a vertex-colour channel instead of a painted `_PIN` ([`crate::painted`]).
    pub pin_color: Option<PinColor>,
    /// Self-collision for the model; `None`: off.
    pub self_collision: Option<Thickness>,
    /// Convert only the meshes of a glTF file whose node or mesh has this name (a character's
    /// cape, not the character); `None`: every mesh.
    pub mesh: Option<String>,
    /// The character's meshes a skinned mesh is worn on, kept as colliders on its joints
    /// ([`crate::rigging`]).
    pub character: CharacterMeshes,
    /// Bounds on what reading the file may take (they change nothing in a model that fits).
    #[serde(skip)]
    pub limits: ImportLimits,
}

impl Default for ConvertOptions {
    fn default() -> Self {
        Self {
            bend: true,
            vicinity_radius: None,
            vicinity_cap: None,
            quad_shear: false,
            stretch: DEFAULT_STRETCH,
            bend_springs: DEFAULT_BEND,
            vicinity: DEFAULT_VICINITY,
            mass: MassMode::PerNode { mass: DEFAULT_NODE_MASS },
            weld_tolerance: None,
            scale: 1.0,
            solid: None,
            pin_color: None,
            self_collision: None,
            mesh: None,
            character: CharacterMeshes::Others,
            limits: ImportLimits::default(),
        }
    }
}

/// Which meshes are the character a worn mesh is worn on and collides with.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub enum CharacterMeshes {
    /// The file's other meshes skinned to the same skeleton (the character under its
    /// cape), less the other garments: meshes painted with a `_MAX_DISTANCE`.
    #[default]
    Others,
    /// The meshes whose node or mesh has this name.
    Named(String),
    /// None: the worn mesh collides with nothing of the character.
    Off,
}

/// The thickness a model that collides with itself keeps between its layers.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub enum Thickness {
    /// 0.9 of the mean length of its stretch springs: the balls of its nodes close its
    /// triangles (`springmesh_core::sim::contacts::self_collision`).
    FromEdges,
    /// This many metres.
    Metres(f32),
}

/// The share of the mean stretch-spring length that [`Thickness::FromEdges`] takes.
pub const THICKNESS_PER_EDGE: f32 = 0.9;

impl ConvertOptions {
    /// A problem with the options, if any: what is wrong, as a sentence.
    pub fn problem(&self) -> Option<String> {
        let finite_non_negative = |x: f32| x.is_finite() && x >= 0.0;
        for (name, s) in
            [("stretch", self.stretch), ("bend", self.bend_springs), ("vicinity", self.vicinity)]
        {
            if !finite_non_negative(s.stiffness) || !finite_non_negative(s.damping) {
                return Some(format!("{name} stiffness and damping must be finite numbers ≥ 0"));
            }
        }
        if let Some(r) = self.vicinity_radius
            && !(r.is_finite() && r > 0.0)
        {
            return Some(format!("vicinity radius {r} must be a finite number > 0"));
        }
        if self.vicinity_cap == Some(0) {
            return Some("vicinity cap must be at least 1".into());
        }
        let mass = self.mass.value();
        if !(mass.is_finite() && mass > 0.0) {
            return Some(format!("mass {mass} must be a finite number > 0"));
        }
        if !(self.scale.is_finite() && self.scale > 0.0) {
            return Some(format!("scale {} must be a finite number > 0", self.scale));
        }
        if let Some(solid) = self.solid {
            let positive = |x: Option<f32>| x.is_none_or(|x| x.is_finite() && x > 0.0);
            if !positive(solid.spacing) || !positive(solid.youngs_modulus) {
                return Some("solid spacing and Young's modulus must be finite numbers > 0".into());
            }
            if solid.max_nodes.is_some_and(|n| n < MIN_CAGE_NODES) {
                return Some(format!("the node budget must be at least {MIN_CAGE_NODES} nodes"));
            }
        }
        if let Some(c) = self.pin_color
            && (c.channel > 3 || !(0.0..=1.0).contains(&c.threshold))
        {
            return Some(
                "pin colour: a channel of red, green, blue, alpha and a threshold between 0 and 1"
                    .into(),
            );
        }
        if let Some(Thickness::Metres(t)) = self.self_collision
            && !(t.is_finite() && t > 0.0)
        {
            return Some(format!("self-collision thickness {t} must be a finite number > 0"));
        }
        if self.limits.max_triangles == 0 {
            return Some("the triangle limit must be at least 1".into());
        }
        if let Some(t) = self.weld_tolerance
            && !finite_non_negative(t)
        {
            return Some(format!("weld tolerance {t} must be a finite number ≥ 0"));
        }
        None
    }

    /// The scale `model` was converted at (1 for a model that records no conversion): the
    /// scale its character's clips are played at ([`crate::import::animation::Clip::pose_scaled`]).
    pub fn scale_of(model: &springmesh_core::SpringModel) -> f32 {
        ConvertOptions::from_metadata(&model.metadata.conversion).map_or(1.0, |o| o.scale)
    }

    /// The options a model's metadata records ([`ConvertOptions::to_metadata`]), or `None`
    /// when it records none (a hand-made model); a key missing or unreadable keeps its default.
    pub fn from_metadata(map: &BTreeMap<String, String>) -> Option<ConvertOptions> {
        if !map.contains_key("bend") {
            return None;
        }
        let d = ConvertOptions::default();
        let get = |k: &str| map.get(k).map(String::as_str);
        let num = |k: &str| get(k).and_then(|v| v.parse::<f32>().ok());
        let flag = |k: &str, default: bool| get(k).map_or(default, |v| v == "true");
        let settings = |kind: &str, default: SpringSettings| SpringSettings {
            stiffness: num(&format!("{kind}_stiffness")).unwrap_or(default.stiffness),
            damping: num(&format!("{kind}_damping")).unwrap_or(default.damping),
        };
        let mass = num("mass").unwrap_or(DEFAULT_NODE_MASS);
        let mass = match get("mass_mode") {
            Some("total_even") => MassMode::TotalEven { mass },
            Some("total_by_area") => MassMode::TotalByArea { mass },
            Some("density") => MassMode::Density { density: mass },
            _ => MassMode::PerNode { mass },
        };
        let pin_color = get("pin_color").and_then(|v| {
            let (channel, threshold) = v.split_once(" >= ")?;
            let channel = ["red", "green", "blue", "alpha"].iter().position(|c| *c == channel)?;
            Some(PinColor { channel, threshold: threshold.parse().ok()? })
        });
        Some(ConvertOptions {
            bend: flag("bend", d.bend),
            vicinity_radius: num("vicinity_radius"),
            vicinity_cap: get("vicinity_cap").and_then(|v| v.parse().ok()),
            quad_shear: flag("quad_shear", d.quad_shear),
            stretch: settings("stretch", d.stretch),
            bend_springs: settings("bend", d.bend_springs),
            vicinity: settings("vicinity", d.vicinity),
            mass,
            weld_tolerance: num("weld_tolerance"),
            scale: num("scale").unwrap_or(1.0),
            solid: flag("solid", false).then(|| SolidOptions {
                spacing: num("solid_spacing"),
                youngs_modulus: num("youngs_modulus"),
                max_nodes: get("max_nodes").and_then(|v| v.parse().ok()),
            }),
            pin_color,
            self_collision: match get("self_collision") {
                Some("from_edges") => Some(Thickness::FromEdges),
                Some(v) => v.parse().ok().map(Thickness::Metres),
                None => None,
            },
            mesh: get("mesh").map(str::to_string),
            // "body": the key's name before 0.2, in models converted then.
            character: match get("character").or_else(|| get("body")) {
                Some("none") => CharacterMeshes::Off,
                Some(name) => CharacterMeshes::Named(name.to_string()),
                None => CharacterMeshes::Others,
            },
            limits: ImportLimits::default(),
        })
    }

    /// The options as text, for a model's metadata.
    pub fn to_metadata(&self) -> BTreeMap<String, String> {
        let opt = |v: Option<f32>| v.map_or("none".to_string(), |v| v.to_string());
        let mass_mode = match self.mass {
            MassMode::PerNode { .. } => "per_node",
            MassMode::TotalEven { .. } => "total_even",
            MassMode::TotalByArea { .. } => "total_by_area",
            MassMode::Density { .. } => "density",
        };
        [
            ("bend", self.bend.to_string()),
            ("vicinity_radius", opt(self.vicinity_radius)),
            ("vicinity_cap", self.vicinity_cap.map_or("none".to_string(), |c| c.to_string())),
            ("quad_shear", self.quad_shear.to_string()),
            ("stretch_stiffness", self.stretch.stiffness.to_string()),
            ("stretch_damping", self.stretch.damping.to_string()),
            ("bend_stiffness", self.bend_springs.stiffness.to_string()),
            ("bend_damping", self.bend_springs.damping.to_string()),
            ("vicinity_stiffness", self.vicinity.stiffness.to_string()),
            ("vicinity_damping", self.vicinity.damping.to_string()),
            ("mass_mode", mass_mode.to_string()),
            ("mass", self.mass.value().to_string()),
            ("weld_tolerance", opt(self.weld_tolerance)),
            ("scale", self.scale.to_string()),
            ("solid", self.solid.is_some().to_string()),
            ("solid_spacing", opt(self.solid.and_then(|s| s.spacing))),
            ("youngs_modulus", opt(self.solid.and_then(|s| s.youngs_modulus))),
            (
                "max_nodes",
                self.solid.and_then(|s| s.max_nodes).map_or("none".to_string(), |n| n.to_string()),
            ),
            (
                "pin_color",
                self.pin_color.map_or("none".to_string(), |c| {
                    format!(
                        "{} >= {}",
                        ["red", "green", "blue", "alpha"][c.channel.min(3)],
                        c.threshold
                    )
                }),
            ),
            (
                "self_collision",
                match self.self_collision {
                    None => "none".to_string(),
                    Some(Thickness::FromEdges) => "from_edges".to_string(),
                    Some(Thickness::Metres(t)) => t.to_string(),
                },
            ),
        ]
        .into_iter()
        .chain(self.mesh.clone().map(|m| ("mesh", m)))
        .chain(match &self.character {
            CharacterMeshes::Others => None,
            CharacterMeshes::Named(name) => Some(("character", name.clone())),
            CharacterMeshes::Off => Some(("character", "none".to_string())),
        })
        .map(|(k, v)| (k.to_string(), v))
        .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn options_read_back_from_the_metadata_they_write() {
        let options = ConvertOptions {
            bend: false,
            vicinity_radius: Some(0.25),
            vicinity_cap: Some(6),
            quad_shear: true,
            stretch: SpringSettings { stiffness: 777.0, damping: 0.5 },
            mass: MassMode::Density { density: 250.0 },
            weld_tolerance: Some(0.001),
            scale: 0.01,
            solid: Some(SolidOptions {
                spacing: Some(0.1),
                youngs_modulus: None,
                max_nodes: Some(500),
            }),
            pin_color: Some(PinColor { channel: 3, threshold: 0.25 }),
            self_collision: Some(Thickness::Metres(0.012)),
            mesh: Some("Cape".into()),
            character: CharacterMeshes::Named("Torso".into()),
            ..ConvertOptions::default()
        };
        assert_eq!(ConvertOptions::from_metadata(&options.to_metadata()), Some(options.clone()));
        let from_edges = ConvertOptions { self_collision: Some(Thickness::FromEdges), ..options };
        assert_eq!(ConvertOptions::from_metadata(&from_edges.to_metadata()), Some(from_edges));
        let default = ConvertOptions::default();
        assert_eq!(ConvertOptions::from_metadata(&default.to_metadata()), Some(default));
        assert_eq!(ConvertOptions::from_metadata(&BTreeMap::new()), None, "a hand-made model");
    }

    #[test]
    fn a_model_converted_when_the_character_was_called_its_body_reads_back() {
        for (old, expected) in
            [("Torso", CharacterMeshes::Named("Torso".into())), ("none", CharacterMeshes::Off)]
        {
            let mut metadata = ConvertOptions::default().to_metadata();
            metadata.insert("body".into(), old.into());
            let read = ConvertOptions::from_metadata(&metadata).map(|o| o.character);
            assert_eq!(read, Some(expected));
        }
    }
}
