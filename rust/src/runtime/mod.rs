//! What the whole process shares: the one vortex session and I/O runtime ([`session`]) and the
//! global allocator, whose arenas are never unmapped and whose live bytes are counted ([`memory`]).

pub mod memory;
pub mod session;

/// Large blocks never unmapped, live bytes counted: see [`memory`].
#[global_allocator]
static ALLOCATOR: memory::Allocator = memory::Allocator;
