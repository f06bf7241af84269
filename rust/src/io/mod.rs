//! Files as the scans read them: opening one ([`file::open`], [`file::OpenFile`]: footer,
//! descriptor, layout reader, shared by every open of the same file) and reading its segments
//! on the scanning thread ([`local_file`]).

pub mod file;
pub(crate) mod local_file;

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
}
