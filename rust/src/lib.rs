//! vortex4j: read and filter Vortex files from the JVM.
//!
//! The safe modules do the work and are tested directly; [`jni`] is a thin shell over them.

pub(crate) mod aggregate; // the fused filter + GROUP BY of a chunk: key decoding, grouping schemes, folds
pub(crate) mod cache; // every process-wide cache (open files, layout readers, dictionaries, segments), one bound policy
pub mod convert; // Parquet, CSV and Arrow IPC into Vortex files, and Vortex out to them
pub mod error; // the library's errors, each becoming one Java exception
pub(crate) mod engine; // Calcite's plans (as Substrait) executed by DataFusion, our scan its leaf
pub(crate) mod export; // a chunk's columns handed to Java as buffers it reads in place
pub mod filter; // kernels evaluating a predicate leaf on encoded data into selection words
pub mod io; // opening files and reading their segments on the scanning thread
pub mod predicate; // the predicate model, its wire form, resolution, LIKE, expressions, the prepared filter
pub mod runtime; // the vortex session and I/O runtime; the global allocator
pub mod scan; // chunked scans, one chunk's evaluation, counts in one crossing, footer statistics
pub mod types; // column types as Java sees them
pub mod write; // Vortex files written from Java's columns or Arrow batches

mod jni; // one thin function per native method over the safe modules above

// The dictionary fixture is test code: the unit tests include it here (naming this crate
// `vortex4j`, as the fixture does from outside), the Java tests run it as the example
// `write_dict_fixture`, the benches include it themselves. It is not in the library.
#[cfg(test)]
extern crate self as vortex4j;
#[cfg(test)]
#[path = "../fixtures/dict_fixture.rs"]
pub mod fixture;
