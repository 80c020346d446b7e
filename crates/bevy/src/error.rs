use bevy::ecs::entity::Entity;
use springmesh_core::CoreError;
use std::path::PathBuf;

/// Why a model could not be loaded or played.
#[derive(Debug, thiserror::Error)]
pub enum SpringmeshBevyError {
    /// The asset's bytes could not be read.
    #[error("cannot read {file}: {cause}")]
    Read {
        /// The asset's path.
        file: PathBuf,
        /// What the reader said.
        cause: std::io::Error,
    },
    /// The bytes are not a valid model, or the model cannot be simulated; the core error names
    /// the file and the reason.
    #[error(transparent)]
    Model(#[from] CoreError),
    /// The body's model asset failed to load.
    #[error("the model failed to load: {reason}")]
    Asset {
        /// The asset server's reason (the file and what is wrong with it).
        reason: String,
    },
    /// A body worn by a character whose hierarchy has no joint of that name.
    #[error("the character {character} has no joint called \"{joint}\" for the model's skeleton")]
    MissingJoint {
        /// The joint's name, as the model keeps it.
        joint: String,
        /// The character's root entity.
        character: Entity,
    },
    /// A body worn by a character under which no joint of the model's skeleton appeared within
    /// [`START_TIMEOUT`](crate::START_TIMEOUT) (its scene was never spawned under it).
    #[error(
        "the character {character} has had no joint called \"{joint}\" for {seconds} s: is the \
         glTF scene with the model's skeleton spawned under it?"
    )]
    NoSkeleton {
        /// The skeleton's first joint, as the model keeps it.
        joint: String,
        /// The character's root entity.
        character: Entity,
        /// How long the body waited (s).
        seconds: f32,
    },
    /// An anchor following an entity that had no transform within
    /// [`START_TIMEOUT`](crate::START_TIMEOUT).
    #[error("node {node} follows {target}, which has had no transform for {seconds} s")]
    NoTarget {
        /// The anchor's node.
        node: u32,
        /// The entity it follows.
        target: Entity,
        /// How long the body waited (s).
        seconds: f32,
    },
    /// A body worn by a character that is not (or no longer) in the world.
    #[error("the character {character} the body is worn by does not exist")]
    NoCharacter {
        /// The entity given to `worn_by`.
        character: Entity,
    },
    /// A body worn by a character whose model is worn on no skeleton.
    #[error("the model is worn on no skeleton: convert a mesh skinned to the character (--mesh)")]
    NotWorn,
}
