//! Files as the scans read them: opening one ([`file::open`], [`file::OpenFile`]: footer,
//! descriptor, layout reader, shared by every open of the same file) and reading its segments
//! on the scanning thread ([`local_file`]).

pub mod file;
pub(crate) mod local_file;
