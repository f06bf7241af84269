//! Every process-wide cache: what is kept across scans, and for how long.

pub(crate) mod dictionaries;
pub(crate) mod readers;
pub(crate) mod segments;
