//! The values a modeler paints on a worn mesh (`_MAX_DISTANCE`, `_PIN`, …:
//! [`springmesh_core::model::painted`]) as vertex attributes of Bevy's glTF loader.
//!
//! Bevy's glTF loader reads a custom attribute only when it was told the name before the app
//! started (its plugin's own list, read once when the plugin finishes), and warns "Unknown
//! vertex attribute" at every load of a mesh that has one it was not told. This plugin cannot
//! add to that list after `DefaultPlugins` has added the glTF plugin, so the game sets the glTF
//! plugin with the names, one call where it adds `DefaultPlugins`:
//!
//! ```no_run
//! # use bevy::prelude::*;
//! # use bevy::gltf::GltfPlugin;
//! use springmesh_bevy::{SpringmeshPlugin, with_painted_attributes};
//!
//! App::new()
//!     .add_plugins((
//!         DefaultPlugins.set(with_painted_attributes(GltfPlugin::default())),
//!         SpringmeshPlugin,
//!     ))
//!     .run();
//! ```
//!
//! The loaded meshes then carry the painted values as attributes of these names, one float a
//! vertex ([`painted_attribute`]), and nothing is warned.

use bevy::gltf::GltfPlugin;
use bevy::mesh::{MeshVertexAttribute, VertexFormat};
use springmesh_core::model::painted::PAINTED;

/// The first of the attributes' ids (Bevy tells attributes apart by id): "SPRN" and a count.
const FIRST_ID: u64 = 0x5350_524E_0000_0000;

/// The mesh attribute that holds the painted value `name` (one of
/// [`springmesh_core::model::painted::PAINTED`]), or `None` for another name.
pub fn painted_attribute(name: &str) -> Option<MeshVertexAttribute> {
    let k = PAINTED.iter().position(|&p| p == name)?;
    Some(MeshVertexAttribute::new(PAINTED[k], FIRST_ID + k as u64, VertexFormat::Float32))
}

/// `plugin` with every painted value Springmesh reads registered as a custom vertex attribute
/// (module doc). Each under its name and under its name without the leading underscore: Bevy
/// 0.19's loader looks an attribute up by the name the `gltf` crate gives it, which drops the
/// underscore (`_MAX_DISTANCE` is looked up as `MAX_DISTANCE`), though its documentation asks
/// for the name with it.
pub fn with_painted_attributes(plugin: GltfPlugin) -> GltfPlugin {
    let named = PAINTED.iter().filter_map(|&name| Some((name, painted_attribute(name)?)));
    named.fold(plugin, |plugin, (name, attribute)| {
        let bare = name.strip_prefix('_').unwrap_or(name);
        plugin
            .add_custom_vertex_attribute(name, attribute)
            .add_custom_vertex_attribute(bare, attribute)
    })
}
