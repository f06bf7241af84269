//! Whole objects to and from local files: what `convert` and `export` write goes to a store as a
//! finished local file, and inputs other readers take (Parquet, CSV, Arrow IPC) come from one.
//!
//! - **Upload** is atomic, as the store's put is: one request for a file up to [`PART_BYTES`],
//!   else a multipart upload with [`PARTS_IN_FLIGHT`] parts sent at once, completed only when
//!   every part has landed (aborted on any failure, so no partial object is ever visible).
//! - **Download** streams into a hidden file beside the target, renamed into place when complete.
//! - **Copy** and **delete** of objects (a write's staged objects published, then removed).

use std::fs::File;
use std::io::Read;
use std::io::Write;
use std::path::Path;
use std::sync::Arc;

use futures::StreamExt;
use futures::stream::FuturesUnordered;
use object_store::ObjectStoreExt;
use object_store::PutPayload;

use super::store;
use crate::error::Error;
use crate::error::Result;

/// Bytes per part of a multipart upload (also the largest file sent in one request); stores
/// take 5 MiB at least, and at most 10,000 parts, so larger files get larger parts.
pub const PART_BYTES: u64 = 16 << 20;
/// Parts of one upload sent at once, at most.
pub const PARTS_IN_FLIGHT: usize = 4;

/// Writes the local file `local` to the object at `location`, replacing it; returns its bytes.
pub fn upload(local: &Path, location: &str) -> Result<u64> {
    let located = store::locate(location)?;
    let mut file = File::open(local).map_err(|e| Error::file(local.display().to_string(), format!("cannot read: {e}")))?;
    let size = file.metadata().map_err(|e| Error::file(local.display().to_string(), e.to_string()))?.len();
    let part = PART_BYTES.max(size.div_ceil(9_000));
    let (store, path) = (Arc::clone(&located.store), located.path.clone());
    let local_name = local.display().to_string();
    let sent = store::run(async move {
        if size <= part {
            let mut bytes = Vec::with_capacity(size as usize);
            file.read_to_end(&mut bytes).map_err(|e| Failure::Local(e.to_string()))?;
            store.put(&path, PutPayload::from(bytes)).await.map_err(Failure::Store)?;
            return Ok(size);
        }
        let mut upload = store.put_multipart(&path).await.map_err(Failure::Store)?;
        let mut parts = FuturesUnordered::new();
        let mut sent = 0u64;
        let outcome: std::result::Result<(), Failure> = async {
            while sent < size {
                let length = part.min(size - sent) as usize;
                let mut bytes = vec![0u8; length];
                file.read_exact(&mut bytes).map_err(|e| Failure::Local(e.to_string()))?;
                sent += length as u64;
                parts.push(upload.put_part(PutPayload::from(bytes)));
                if parts.len() >= PARTS_IN_FLIGHT
                    && let Some(done) = parts.next().await
                {
                    done.map_err(Failure::Store)?;
                }
            }
            while let Some(done) = parts.next().await {
                done.map_err(Failure::Store)?;
            }
            upload.complete().await.map_err(Failure::Store)?;
            Ok(())
        }
        .await;
        if let Err(failure) = outcome {
            drop(parts);
            let _ = upload.abort().await;
            return Err(failure);
        }
        Ok(size)
    });
    sent.map_err(|failure| match failure {
        Failure::Local(message) => Error::file(local_name, format!("cannot read: {message}")),
        Failure::Store(e) => store::store_error(location, e),
    })
}

/// Writes the object at `location` to the local file `local` (replacing it only once the whole
/// object has arrived); returns its bytes.
pub fn download(location: &str, local: &Path) -> Result<u64> {
    let located = store::locate(location)?;
    let name = local.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let partial = local.with_file_name(format!(".{name}.partial"));
    let mut out =
        File::create(&partial).map_err(|e| Error::file(partial.display().to_string(), format!("cannot create: {e}")))?;
    let (store, path) = (Arc::clone(&located.store), located.path.clone());
    let received = store::run(async move {
        let mut stream = store.get(&path).await.map_err(Failure::Store)?.into_stream();
        let mut received = 0u64;
        while let Some(chunk) = stream.next().await {
            let chunk = chunk.map_err(Failure::Store)?;
            out.write_all(&chunk).map_err(|e| Failure::Local(e.to_string()))?;
            received += chunk.len() as u64;
        }
        out.sync_all().map_err(|e| Failure::Local(e.to_string()))?;
        Ok(received)
    });
    let received = match received {
        Ok(received) => received,
        Err(failure) => {
            let _ = std::fs::remove_file(&partial);
            return Err(match failure {
                Failure::Local(message) => Error::file(local.display().to_string(), format!("cannot write: {message}")),
                Failure::Store(e) => store::store_error(location, e),
            });
        }
    };
    store::count_request(received);
    std::fs::rename(&partial, local).map_err(|e| Error::file(local.display().to_string(), format!("cannot write: {e}")))?;
    Ok(received)
}

/// Copies the object at `from` to `to` in the same store, on the store's side (`to` appears
/// whole, replaced if it was there).
pub fn copy(from: &str, to: &str) -> Result<()> {
    let source = store::locate(from)?;
    let target = store::locate(to)?;
    if source.root != target.root {
        return Err(Error::file(to, format!("cannot copy {from} here: another store")));
    }
    let (store, from_path, to_path) = (Arc::clone(&source.store), source.path.clone(), target.path.clone());
    store::run(async move { store.copy(&from_path, &to_path).await }).map_err(|e| store::store_error(from, e))?;
    store::count_request(0);
    Ok(())
}

/// Deletes the object at `location`; one that is not there is no error.
pub fn delete(location: &str) -> Result<()> {
    let located = store::locate(location)?;
    let (store, path) = (Arc::clone(&located.store), located.path.clone());
    match store::run(async move { store.delete(&path).await }) {
        Ok(()) | Err(object_store::Error::NotFound { .. }) => {
            store::count_request(0);
            Ok(())
        }
        Err(e) => Err(store::store_error(location, e)),
    }
}

/// What went wrong in a transfer: on the local side, or the store's answer.
enum Failure {
    Local(String),
    Store(object_store::Error),
}
