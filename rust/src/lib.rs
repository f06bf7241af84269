//! vortex4j: read and filter Vortex files from the JVM.
//!
//! The safe modules do the work and are tested directly; [`jni`] is a thin shell over them.

pub mod aggregate;
pub mod cache;
pub mod convert;
pub mod error;
pub mod export;
pub mod filter;
pub mod io;
pub mod predicate;
pub mod runtime;
pub mod scan;
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
