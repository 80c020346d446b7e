//! The components a game puts on an entity ([`SoftBody`]) and reads back ([`SoftBodyState`]).

use crate::SpringModelAsset;
use crate::convert::{to_bevy, to_core};
use bevy::asset::Handle;
use bevy::ecs::component::Component;
use bevy::ecs::entity::Entity;
use bevy::math::Vec3;
use springmesh_core::sim::Touching;
use springmesh_core::{CoreError, Energy, NodeId, RigidImpulse, Simulation, SpringId, glam};

/// Most steps a body takes in one frame. After a hitch (a level load, a breakpoint) the body
/// drops the time it could not catch up on instead of taking ever more steps per frame.
pub const MAX_STEPS_PER_FRAME: u32 = 8;

/// How long (s of the app's virtual time) a body waits for the character it is worn by to
/// have the model's skeleton among its descendants, and for the entities its anchors follow to
/// have a transform, before it fails ([`SoftBodyFailed`](crate::SoftBodyFailed)) naming what
/// it did not find: long enough for a character's glTF scene to load and spawn, short enough
/// that a wrong entity is heard of.
pub const START_TIMEOUT: f32 = 10.0;

/// A soft body: the model to simulate and how it meets the game's world.
///
/// The entity's [`GlobalTransform`](bevy::transform::components::GlobalTransform) places the
/// body when it starts (rotation and translation; scale is ignored, it would change every
/// spring's rest length). From then on the simulation owns the nodes' world positions: move a
/// body by its anchors ([`SoftBody::follow`]).
#[derive(Component, Clone, Debug)]
pub struct SoftBody {
    /// The model.
    pub model: Handle<SpringModelAsset>,
    /// Anchors that follow entities: (node, target).
    pub follows: Vec<(u32, Entity)>,
    /// Gravity (m/s²) instead of the model's own; applied whenever the component changes.
    pub gravity: Option<Vec3>,
    /// Wind (m/s) instead of the model's own; a model without air gets the default air.
    pub wind: Option<Vec3>,
    /// Send a [`SoftBodyEnergy`](crate::SoftBodyEnergy) message each frame the body steps
    /// (measuring energy costs about one pass over the springs).
    pub report_energy: bool,
    /// Most steps in one frame ([`MAX_STEPS_PER_FRAME`]).
    pub max_steps_per_frame: u32,
    /// The character the body is worn on ([`SoftBody::worn_by`]).
    pub worn_by: Option<Entity>,
    /// Whether the body collides with the app's other soft bodies (default: yes).
    pub meets_bodies: bool,
}

impl SoftBody {
    /// A body of `model`, with the model's own gravity and wind.
    pub fn new(model: Handle<SpringModelAsset>) -> SoftBody {
        SoftBody {
            model,
            follows: Vec::new(),
            gravity: None,
            wind: None,
            report_energy: false,
            max_steps_per_frame: MAX_STEPS_PER_FRAME,
            worn_by: None,
            meets_bodies: true,
        }
    }

    /// The body is worn by the character whose root (the entity its glTF scene was spawned
    /// under, or its skinned mesh's entity) is `character`: a model converted from a mesh
    /// skinned to that character's skeleton (`convert walker.glb --mesh Cape`). The plugin finds
    /// the joints among `character`'s descendants by the names the model keeps, puts the body
    /// on them when it starts, and poses it from their `GlobalTransform`s every frame, after
    /// animation and transform propagation ([`crate::systems`]). A joint the character does
    /// not have is a [`SoftBodyFailed`](crate::SoftBodyFailed) naming it.
    pub fn worn_by(mut self, character: Entity) -> SoftBody {
        self.worn_by = Some(character);
        self
    }

    /// The body does not collide with the app's other soft bodies (it still collides with
    /// every [`SoftCollider`](crate::SoftCollider)).
    pub fn alone(mut self) -> SoftBody {
        self.meets_bodies = false;
        self
    }

    /// Node `node` follows `target`'s `GlobalTransform`, keeping the offset (in the target's
    /// frame) it had when the body started: a flag on a moving pole, a cape on a character's
    /// shoulders. A node that is not an anchor of the model becomes one.
    pub fn follow(mut self, node: u32, target: Entity) -> SoftBody {
        self.follows.push((node, target));
        self
    }

    /// Gravity (m/s²) for this body.
    pub fn with_gravity(mut self, gravity: Vec3) -> SoftBody {
        self.gravity = Some(gravity);
        self
    }

    /// Wind (m/s) for this body.
    pub fn with_wind(mut self, wind: Vec3) -> SoftBody {
        self.wind = Some(wind);
        self
    }

    /// Report the body's energy as a message each frame it steps.
    pub fn with_energy_messages(mut self) -> SoftBody {
        self.report_energy = true;
        self
    }
}

/// An anchor following an entity.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Follow {
    pub node: NodeId,
    pub target: Entity,
    /// The anchor's position in the target's frame.
    pub offset: Vec3,
    /// Where the anchor was at the end of the last frame (world, m).
    pub last: Vec3,
    /// Where its target puts it this frame (world, m).
    pub goal: Vec3,
}

/// The skeleton a worn body follows: its joints' entities (in the rig's order) and their
/// world matrices at the end of the last frame and this frame.
#[derive(Clone, Debug)]
pub(crate) struct Worn {
    pub joints: Vec<Entity>,
    pub last: Vec<glam::Mat4>,
    pub goal: Vec<glam::Mat4>,
}

/// The running simulation of a [`SoftBody`], inserted once its model has loaded.
#[derive(Component, Debug)]
pub struct SoftBodyState {
    pub(crate) sim: Simulation,
    /// What the body touches other bodies with.
    pub(crate) touching: Touching,
    pub(crate) positions: Vec<Vec3>,
    pub(crate) follows: Vec<Follow>,
    pub(crate) worn: Option<Worn>,
    /// How many colliders the model brought; the game's follow them.
    pub(crate) own_colliders: usize,
    /// The game's colliders the body has after its own, by entity.
    pub(crate) game_colliders: Vec<Entity>,
    pub(crate) broken: Vec<SpringId>,
    pub(crate) steps: u32,
    pub(crate) failure: Option<CoreError>,
    /// The game's rigid bodies the body meets this physics step, and what they took.
    pub(crate) rigid: RigidContacts,
}

/// The rigid bodies a soft body meets (the `avian` module): which of the app's list, in the
/// order the simulation was given them, and the impulses each took over this physics step's
/// steps so far.
#[derive(Debug, Default)]
pub(crate) struct RigidContacts {
    pub of: Vec<usize>,
    pub taken: Vec<RigidImpulse>,
}

impl RigidContacts {
    /// What the bodies took over this physics step's steps so far
    /// ([`Simulation::rigid_impulses`] adds up the steps since the bodies were set).
    pub fn took(&mut self, impulses: &[RigidImpulse]) {
        for (sum, &i) in self.taken.iter_mut().zip(impulses) {
            *sum = i;
        }
    }
}

impl SoftBodyState {
    pub(crate) fn new(sim: Simulation, follows: Vec<Follow>, worn: Option<Worn>) -> SoftBodyState {
        let own_colliders = sim.colliders().len();
        let mut state = SoftBodyState {
            touching: Touching::of(&sim),
            sim,
            positions: Vec::new(),
            follows,
            worn,
            own_colliders,
            game_colliders: Vec::new(),
            broken: Vec::new(),
            steps: 0,
            failure: None,
            rigid: RigidContacts::default(),
        };
        state.read_positions();
        state
    }

    /// The nodes' positions in world space (m), as of the body's last step.
    pub fn positions(&self) -> &[Vec3] {
        &self.positions
    }

    /// Kinetic, elastic, gravitational and gas energy now (J); about one pass over the springs.
    pub fn energy(&self) -> Energy {
        self.sim.energy()
    }

    /// The springs that broke during this frame's steps.
    pub fn broken_springs(&self) -> &[SpringId] {
        &self.broken
    }

    /// Steps taken this frame (0 when the frame was shorter than the model's `dt`; a world
    /// step cut into several for bodies that meet counts as one).
    pub fn steps_this_frame(&self) -> u32 {
        self.steps
    }

    /// Why the body stopped, if a step was rejected (a model that blew up): it then stays at
    /// its last good state.
    pub fn failure(&self) -> Option<&CoreError> {
        self.failure.as_ref()
    }

    /// Sets gravity (m/s²).
    pub fn set_gravity(&mut self, gravity: Vec3) {
        self.sim.params_mut().gravity = to_core(gravity);
    }

    /// Sets the wind (m/s); a model without air gets the default air with that wind.
    pub fn set_wind(&mut self, wind: Vec3) {
        self.sim.params_mut().air.get_or_insert_with(Default::default).wind = to_core(wind);
    }

    /// The simulation itself, for what this crate does not wrap.
    pub fn simulation(&self) -> &Simulation {
        &self.sim
    }

    /// The simulation itself, mutably (positions, anchors, force fields, listeners).
    /// Positions changed here show in [`SoftBodyState::positions`] after the next step.
    pub fn simulation_mut(&mut self) -> &mut Simulation {
        &mut self.sim
    }

    /// Applies the body's own gravity and wind, where it sets them.
    pub(crate) fn apply(&mut self, body: &SoftBody) {
        if let Some(g) = body.gravity {
            self.set_gravity(g);
        }
        if let Some(w) = body.wind {
            self.set_wind(w);
        }
    }

    /// The drawn surface in world space (m), as the body's mesh shows it: its vertices'
    /// positions and normals into `positions` and `normals` (cleared first), as of the body's
    /// last step. A cloth's vertices are its nodes; a solid's, its skin's vertices on its cage.
    pub fn surface(&self, positions: &mut Vec<Vec3>, normals: &mut Vec<Vec3>) {
        let (mut p, mut n) = (Vec::new(), Vec::new());
        self.sim.surface(&mut p, &mut n);
        positions.clear();
        positions.extend(p.into_iter().map(to_bevy));
        normals.clear();
        normals.extend(n.into_iter().map(to_bevy));
    }

    /// The drawn surface's triangles: indices into [`SoftBodyState::surface`]'s vertices,
    /// wound outwards.
    pub fn surface_triangles(&self) -> impl ExactSizeIterator<Item = [u32; 3]> + '_ {
        self.sim.surface_faces().iter().map(|t| t.map(|v| v.0))
    }

    pub(crate) fn read_positions(&mut self) {
        self.positions.clear();
        self.positions.extend(self.sim.positions().iter().map(|&p| to_bevy(p.into())));
    }
}
