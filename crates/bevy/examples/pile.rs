//! A dozen jellies dropped in a heap: the blob (`assets/meshes/blob.obj`) converted as a
//! solid, as `springmesh convert blob.obj --solid` does, spawned twelve times above the ground.
//! Every `SoftBody` of an app meets the others in one world, stepped on all cores: they land
//! on each other and never pass through.
//!
//! `cargo run --release -p springmesh-bevy --features examples --example pile [-- --screenshot OUT.png]`

mod common;

use bevy::prelude::*;
use common::Args;
use springmesh_bevy::{SoftBody, SpringModelAsset};
use springmesh_convert::convert_file;

/// The repository's `assets` folder, wherever the example is run from.
const ASSETS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../assets");

/// How many jellies.
const JELLIES: usize = 12;

fn main() -> AppExit {
    let args = Args::parse();
    if let Some(unknown) = args.rest.first() {
        eprintln!("unknown argument {unknown}; usage: pile [--screenshot OUT.png]");
        return AppExit::from_code(2);
    }
    let mut app = common::app("Springmesh: a pile of jellies".into(), ASSETS.into(), &args);
    app.add_systems(Startup, setup);
    app.run()
}

fn setup(
    mut commands: Commands,
    mut models: ResMut<Assets<SpringModelAsset>>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<StandardMaterial>>,
) {
    let options = springmesh_convert::samples::pile::solid_options();
    let blob = std::path::Path::new(ASSETS).join("meshes/blob.obj");
    let mut model = match convert_file(&blob, &options) {
        Ok(c) => c.model,
        Err(e) => {
            error!("cannot convert {}: {e}", blob.display());
            return;
        }
    };
    // Its middle on the origin, its lowest point at 0, so that each jelly turns about its
    // middle where it is placed.
    let Some(bounds) = model.bounding_box() else { return };
    let size = bounds.diagonal();
    let centre = bounds.center();
    let to_origin = springmesh_core::glam::Vec3::new(-centre.x, -bounds.min.y, -centre.z);
    if let Err(e) = model.place(springmesh_core::glam::Quat::IDENTITY, to_origin) {
        error!("cannot centre the jelly: {e}");
        return;
    }
    let handle = models.add(SpringModelAsset { model });
    for k in 0..JELLIES {
        // Three layers of four, each a little apart and turned: they fall onto each other.
        let (layer, spot) = ((k / 4) as f32, k % 4);
        let x = (spot % 2) as f32 * 0.6 * size - 0.3 * size + 0.1 * layer;
        let z = (spot / 2) as f32 * 0.6 * size - 0.3 * size - 0.1 * layer;
        let at = Transform::from_xyz(x, 0.2 + layer * 0.8 * size, z)
            .with_rotation(Quat::from_rotation_y(0.7 * k as f32));
        let hue = 360.0 * k as f32 / JELLIES as f32;
        commands.spawn((
            SoftBody::new(handle.clone()),
            at,
            MeshMaterial3d(materials.add(Color::hsl(hue, 0.6, 0.55))),
        ));
    }
    common::stage(&mut commands, &mut meshes, &mut materials, Vec3::new(3.0, 6.0, 4.0));
    commands.spawn((
        Camera3d::default(),
        Transform::from_xyz(1.2 * size, 1.6 * size, 2.4 * size)
            .looking_at(Vec3::new(0.0, 0.5 * size, 0.0), Vec3::Y),
    ));
}
