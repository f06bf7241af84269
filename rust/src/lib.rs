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
pub mod int_filter;
pub mod like;
pub mod list_filter;
pub mod local_file;
pub mod memory;
pub mod predicate;
pub mod prepared;
pub mod reader_cache;
pub mod resolve;
pub mod scan;
pub mod scan_count;
pub mod segment_memo;
pub mod session;
pub mod statistics;
pub mod types;
pub mod write;

mod jni;

// The dictionary fixture is test code: the unit tests include it here (naming this crate
// `vortex4j`, as the fixture does from outside), the Java tests run it as the example
// `write_dict_fixture`, the benches include it themselves. It is not in the library.
#[cfg(test)]
extern crate self as vortex4j;
#[cfg(test)]
#[path = "../fixtures/dict_fixture.rs"]
pub mod fixture;

/// Large blocks never unmapped, live bytes counted: see [`memory`].
#[global_allocator]
static ALLOCATOR: memory::Allocator = memory::Allocator;
