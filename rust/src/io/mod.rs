//! Files as the scans read them: opening one ([`file::open`], [`file::OpenFile`]: footer,
//! descriptor, layout reader, shared by every open of the same file) and reading its segments:
//! a local file's on the scanning thread ([`local_file`]), an object's from its store
//! ([`remote_file`], [`store`]); whole objects to and from local files ([`transfer`]).

pub mod file;
pub(crate) mod local_file;
pub(crate) mod remote_file;
pub mod store;
pub mod transfer;

use std::os::unix::fs::MetadataExt;

/// A file's contents as far as the caches can tell: a file rewritten, replaced or resized since
/// has another identity.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub(crate) struct Identity {
    dev: u64,
    ino: u64,
    len: u64,
    mtime: i64,
    mtime_nsec: i64,
}

impl Identity {
    /// The identity of the file `meta` describes.
    pub(crate) fn of(meta: &std::fs::Metadata) -> Self {
        Identity { dev: meta.dev(), ino: meta.ino(), len: meta.len(), mtime: meta.mtime(), mtime_nsec: meta.mtime_nsec() }
    }

    /// The identity of an object in a store: its location, ETag, size and modification time
    /// (`dev` set apart from every local device's).
    pub(crate) fn object(location: &str, etag: Option<&str>, len: u64, modified_millis: i64) -> Self {
        use std::hash::Hash;
        use std::hash::Hasher;
        let mut hasher = std::collections::hash_map::DefaultHasher::new();
        location.hash(&mut hasher);
        etag.hash(&mut hasher);
        Identity {
            dev: u64::MAX,
            ino: hasher.finish(),
            len,
            mtime: modified_millis.div_euclid(1000),
            mtime_nsec: modified_millis.rem_euclid(1000) * 1_000_000,
        }
    }
}
