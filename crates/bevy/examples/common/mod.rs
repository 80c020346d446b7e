//! What both examples share: `--screenshot OUT.png` (draw until the scene is up, save one
//! frame, exit; exit 1 when the frame shows nothing but the background).

use bevy::gltf::GltfPlugin;
use bevy::prelude::*;
use bevy::render::view::screenshot::{Screenshot, ScreenshotCaptured};
use springmesh_bevy::{SoftBodyState, SoftCollider, SpringmeshPlugin, with_painted_attributes};
use std::path::PathBuf;

/// The command line: `--screenshot OUT.png` anywhere, the other arguments in order.
pub struct Args {
    /// Where to save the screenshot, if one was asked for.
    pub screenshot: Option<PathBuf>,
    /// The other arguments.
    pub rest: Vec<String>,
}

impl Args {
    pub fn parse() -> Args {
        let mut screenshot = None;
        let mut rest = Vec::new();
        let mut args = std::env::args().skip(1);
        while let Some(arg) = args.next() {
            if arg == "--screenshot" {
                screenshot = args.next().map(PathBuf::from);
            } else {
                rest.push(arg);
            }
        }
        Args { screenshot, rest }
    }
}

/// An app with Bevy's default plugins, a window titled `title`, assets read from `assets`,
/// the Springmesh plugin, and the screenshot if `args` asked for one.
pub fn app(title: String, assets: String, args: &Args) -> App {
    let mut app = App::new();
    app.add_plugins((
        DefaultPlugins
            .set(AssetPlugin { file_path: assets, ..default() })
            .set(with_painted_attributes(GltfPlugin::default()))
            .set(WindowPlugin { primary_window: Some(Window { title, ..default() }), ..default() }),
        SpringmeshPlugin,
    ));
    if let Some(path) = &args.screenshot {
        app.add_plugins(ScreenshotPlugin { path: path.clone() });
    }
    app
}

/// The examples' stage: a 12 m grass ground at y = 0 that the bodies land on, and a sun
/// shining from `sun` towards the origin.
#[allow(dead_code, reason = "the viewer sizes its own ground to the model it shows")]
pub fn stage(
    commands: &mut Commands,
    meshes: &mut Assets<Mesh>,
    materials: &mut Assets<StandardMaterial>,
    sun: Vec3,
) {
    commands.spawn((
        SoftCollider::plane(Vec3::Y),
        Mesh3d(meshes.add(Plane3d::default().mesh().size(12.0, 12.0))),
        MeshMaterial3d(materials.add(Color::srgb(0.35, 0.5, 0.3))),
    ));
    commands.spawn((
        DirectionalLight { illuminance: 8000.0, shadow_maps_enabled: true, ..default() },
        Transform::from_translation(sun).looking_at(Vec3::ZERO, Vec3::Y),
    ));
}

/// Seconds of simulation before the screenshot: long enough for the body to move.
const SETTLE_SECONDS: f32 = 2.0;

/// How many frames to try before giving up on a frame that shows the model.
const ATTEMPTS: u32 = 20;

/// Real seconds after which a screenshot run that has not saved gives up (a model that did
/// not load, a renderer that never drew).
const GIVE_UP_SECONDS: f32 = 240.0;

/// Smallest share of the pixels that must differ from the background.
const MIN_SHARE: f64 = 0.005;

/// Takes the screenshot once every body has run for [`SETTLE_SECONDS`].
pub struct ScreenshotPlugin {
    pub path: PathBuf,
}

#[derive(Resource)]
struct Shot {
    path: PathBuf,
    attempts: u32,
    pending: bool,
}

impl Plugin for ScreenshotPlugin {
    fn build(&self, app: &mut App) {
        app.insert_resource(Shot { path: self.path.clone(), attempts: 0, pending: false })
            .add_systems(Update, take);
    }
}

fn take(
    mut commands: Commands,
    mut shot: ResMut<Shot>,
    bodies: Query<&SoftBodyState>,
    time: Res<Time<Real>>,
    mut exit: MessageWriter<AppExit>,
) {
    if time.elapsed_secs() > GIVE_UP_SECONDS {
        error!("no screenshot after {GIVE_UP_SECONDS} s: did the model load?");
        exit.write(AppExit::from_code(1));
        return;
    }
    let ready = !bodies.is_empty()
        && bodies.iter().all(|b| b.simulation().time() >= f64::from(SETTLE_SECONDS));
    if !ready || shot.pending {
        return;
    }
    shot.pending = true;
    shot.attempts += 1;
    commands.spawn(Screenshot::primary_window()).observe(check_and_save);
}

/// Saves the frame if it shows something besides the background (the colour of its corner),
/// else asks for another; after [`ATTEMPTS`] blank frames, exits with status 1.
fn check_and_save(
    captured: On<ScreenshotCaptured>,
    mut shot: ResMut<Shot>,
    mut exit: MessageWriter<AppExit>,
) {
    shot.pending = false;
    let image = match captured.image.clone().try_into_dynamic() {
        Ok(image) => image.to_rgb8(),
        Err(e) => {
            error!("cannot read the screenshot: {e}");
            exit.write(AppExit::from_code(1));
            return;
        }
    };
    let background = *image.get_pixel(0, 0);
    let differs =
        |p: &image::Rgb<u8>| p.0.iter().zip(background.0).any(|(&a, b)| a.abs_diff(b) > 24);
    let drawn = image.pixels().filter(|p| differs(p)).count();
    let share = drawn as f64 / (f64::from(image.width()) * f64::from(image.height()));
    if share < MIN_SHARE {
        if shot.attempts >= ATTEMPTS {
            error!("the frame shows only the background ({drawn} pixels differ)");
            exit.write(AppExit::from_code(1));
        }
        return;
    }
    match image.save(&shot.path) {
        Ok(()) => {
            info!(
                "saved {} ({}×{}, {drawn} pixels, {:.1}%, not background)",
                shot.path.display(),
                image.width(),
                image.height(),
                100.0 * share
            );
            exit.write(AppExit::Success);
        }
        Err(e) => {
            error!("cannot save {}: {e}", shot.path.display());
            exit.write(AppExit::from_code(1));
        }
    }
}

/// The ground direction the arrow keys held point along: left and right along x, up and
/// down along −z and +z (away from and towards the examples' cameras); zero when none is.
#[allow(dead_code, reason = "only the examples that move something with the keys use it")]
pub fn arrows(keys: &ButtonInput<KeyCode>) -> Vec3 {
    [
        (KeyCode::ArrowLeft, Vec3::NEG_X),
        (KeyCode::ArrowRight, Vec3::X),
        (KeyCode::ArrowUp, Vec3::NEG_Z),
        (KeyCode::ArrowDown, Vec3::Z),
    ]
    .into_iter()
    .filter(|(key, _)| keys.pressed(*key))
    .map(|(_, along)| along)
    .sum()
}
