//! vortex4j: read and filter Vortex files from the JVM.
//!
//! The safe modules do the work and are tested directly; [`jni`] is a thin shell over them.

pub mod aggregate;
pub mod chunk;
pub mod convert;
pub mod dict_cache;
pub mod dict_filter;
pub mod error;
pub mod export;
pub mod expression;
pub mod file;
pub mod fixture;
pub mod like;
pub mod list_filter;
pub mod local_file;
pub mod memory;
pub mod predicate;
pub mod prepared;
pub mod resolve;
pub mod scan;
pub mod session;
pub mod statistics;
pub mod types;
pub mod write;

mod jni;

/// Large blocks never unmapped, live bytes counted: see [`memory`].
#[global_allocator]
static ALLOCATOR: memory::Allocator = memory::Allocator;
