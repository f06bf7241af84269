//! A filtered count over a scan's next chunks in one call: each chunk is read, counted through
//! the prepared filter and dropped here, so a count crosses JNI once per batch of chunks rather
//! than three times per chunk (next chunk, count, free) and Java builds no object per chunk.

use crate::chunk::Chunk;
use crate::error::Error;
use crate::error::Result;
use crate::prepared::PreparedFilter;
use crate::scan::Scan;

/// What [`count_chunks`] did.
pub struct Counted {
    /// Rows the filter selects in the chunks counted.
    pub rows: u64,
    /// Chunks read, counted and dropped (a declined chunk is not among them).
    pub chunks: u64,
    pub stop: Stop,
}

/// Why [`count_chunks`] returned.
pub enum Stop {
    /// It counted as many chunks as it was allowed; the scan may have more.
    Limit,
    /// The scan has no more chunks.
    End,
    /// The filter cannot be evaluated natively on this chunk, the one after those counted: the
    /// caller owns it and counts it its own way.
    Declined(Chunk),
}

/// Counts the rows `filter` selects in `scan`'s next chunks, at most `max_chunks` of them,
/// stopping early at the end of the scan or at a chunk the filter declines. `filter` must have
/// no leaf evaluated by Java (there is no Java chunk to evaluate it on).
pub fn count_chunks(scan: &mut Scan, filter: &PreparedFilter, max_chunks: usize) -> Result<Counted> {
    if filter.has_external_leaves() {
        // Checked before reading: a chunk read here and then failed would be lost to the caller.
        return Err(Error::Invalid("a filter with leaves Java evaluates cannot count chunks natively".into()));
    }
    let external = vec![None; filter.leaves()];
    let mut counted = Counted { rows: 0, chunks: 0, stop: Stop::Limit };
    while counted.chunks < max_chunks as u64 {
        let Some(columns) = scan.next_chunk()? else {
            counted.stop = Stop::End;
            break;
        };
        let chunk = Chunk::new(columns);
        match filter.count(&chunk, &external)? {
            Some(n) => {
                counted.rows += n;
                counted.chunks += 1;
            }
            None => {
                counted.stop = Stop::Declined(chunk);
                break;
            }
        }
    }
    Ok(counted)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::predicate::CmpOp;
    use crate::predicate::Literal;
    use crate::predicate::Predicate;
    use crate::prepared::LeafSpec;

    /// A one-leaf filter on column `s` of the fixture's scan (`id`, `s`, `v`), prepared as Java
    /// does, on a scan before its first chunk; `external`: sent without an encoding (Java's leaf).
    fn prepare(file: &crate::file::OpenFile, names: &[String], leaf: &Predicate, external: bool) -> PreparedFilter {
        let scan = Scan::open(file, names, None).unwrap();
        let spec = LeafSpec { encoded: (!external).then(|| leaf.clone().normalize().encode()), column: 1 };
        scan.prepare_filter(&[2, 0], vec![spec]).unwrap()
    }

    /// Batches of 1, 3 and more chunks than the file has add up to vortex's own filtered scan;
    /// the batches stop at the limit, then at the end. The fixture's dictionaries all hold
    /// non-ASCII words, so an ILIKE is declined on the first chunk, which comes back unread by
    /// the count; a filter with a Java leaf is refused before any chunk is read.
    #[test]
    fn batches_add_up_to_vortex_filtered_scan() {
        let path = std::env::temp_dir().join(format!("vortex4j-scan-count-{}.vortex", std::process::id()));
        let path = path.to_str().unwrap();
        let strings = crate::fixture::write_dict_fixture(path, 7, 1500, 3, false).unwrap();
        let file = crate::file::open(path).unwrap();
        let names: Vec<String> = ["id", "s", "v"].map(String::from).to_vec();
        let common = strings[0].clone().unwrap();
        let eq = Predicate::Compare { column: "s".into(), op: CmpOp::Eq, value: Literal::Utf8(common) };
        let expected = crate::scan::filtered_rows(&file, &eq).unwrap().len() as u64;
        assert!(expected > 0);
        let filter = prepare(&file, &names, &eq, false);
        for max in [1, 3, 100] {
            let mut scan = Scan::open(&file, &names, None).unwrap();
            let (mut rows, mut chunks, mut calls) = (0, 0, 0);
            loop {
                let counted = count_chunks(&mut scan, &filter, max).unwrap();
                calls += 1;
                rows += counted.rows;
                chunks += counted.chunks;
                match counted.stop {
                    Stop::Limit => assert_eq!(counted.chunks, max as u64),
                    Stop::End => break,
                    Stop::Declined(_) => panic!("an equality on a dictionary is native"),
                }
            }
            assert_eq!((rows, chunks), (expected, 7), "max {max}");
            assert_eq!(calls, 7 / max + 1, "max {max}");
        }

        let ilike = Predicate::Like { column: "s".into(), pattern: "%a%".into(), escape: None, case_insensitive: true, negated: false };
        let mut scan = Scan::open(&file, &names, None).unwrap();
        let counted = count_chunks(&mut scan, &prepare(&file, &names, &ilike, false), 16).unwrap();
        let Stop::Declined(chunk) = counted.stop else { panic!("ILIKE on non-ASCII words is declined") };
        assert_eq!((counted.rows, counted.chunks, chunk.data.first_row, chunk.len()), (0, 0, 0, 1500));

        let mut scan = Scan::open(&file, &names, None).unwrap();
        assert!(count_chunks(&mut scan, &prepare(&file, &names, &eq, true), 16).is_err());
        assert_eq!(scan.next_chunk().unwrap().unwrap().first_row, 0, "no chunk was read");
        let _ = std::fs::remove_file(path);
    }
}
