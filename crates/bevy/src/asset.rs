//! The `.spring` asset: a model read by Bevy's asset server.
//!
//! The loader hands the file's bytes to [`springmesh_core::io::decode`], which reads binary
//! `.spring` and `.spring.json` alike (by their first bytes), bounds every allocation by the
//! bytes actually present and validates the model. A file that is not a model fails to load
//! with the file and the reason in Bevy's [`AssetLoadFailedEvent`](bevy::asset::AssetLoadFailedEvent)
//! and [`LoadState::Failed`](bevy::asset::LoadState::Failed); nothing panics.

use crate::SpringmeshBevyError;
use bevy::asset::io::Reader;
use bevy::asset::{Asset, AssetLoader, LoadContext};
use bevy::reflect::TypePath;
use springmesh_core::{ValidModel, io};

/// A loaded Springmesh model. Each [`crate::SoftBody`] that uses it simulates its own copy.
#[derive(Asset, TypePath, Clone, Debug)]
pub struct SpringModelAsset {
    /// The model as saved by the converter or the editor.
    pub model: ValidModel,
}

/// Reads `.spring` and `.spring.json` files into [`SpringModelAsset`]s.
#[derive(Default, TypePath)]
pub struct SpringModelLoader;

impl AssetLoader for SpringModelLoader {
    type Asset = SpringModelAsset;
    type Settings = ();
    type Error = SpringmeshBevyError;

    async fn load(
        &self,
        reader: &mut dyn Reader,
        _settings: &(),
        load_context: &mut LoadContext<'_>,
    ) -> Result<SpringModelAsset, SpringmeshBevyError> {
        let file = load_context.path().path().to_path_buf();
        let mut bytes = Vec::new();
        reader
            .read_to_end(&mut bytes)
            .await
            .map_err(|cause| SpringmeshBevyError::Read { file: file.clone(), cause })?;
        let model = io::decode(&bytes, &file)?;
        Ok(SpringModelAsset { model })
    }

    fn extensions(&self) -> &[&str] {
        &["spring", "spring.json"]
    }
}
