//! Every process-wide cache: what is kept across scans, and for how long.
//!
//! One policy ([`lru::Lru`]): bounded (in entries or bytes), least recently used dropped first,
//! forgotten when its file's last open closes.
//!
//! - [`open_files`]: the state every open of the same file shares, while one is open;
//! - [`readers`]: the layout readers of the most recently scanned files;
//! - [`dictionaries`]: per dictionary, its per-predicate code tables and export, forgotten with
//!   its file's reader;
//! - [`segments`]: segments read and chunks decoded from them, bounded in bytes, dropped first
//!   when native memory passes its limit;
//! - [`memo::Memo`]: values computed once per key for the life of their holder (a file's zone-map
//!   results and projections, a dictionary's code tables).

pub(crate) mod dictionaries;
pub(crate) mod lru;
pub(crate) mod memo;
pub(crate) mod open_files;
pub(crate) mod readers;
pub(crate) mod segments;
