//! A filtered count over a scan's next chunks in one call: each chunk is read, counted through
//! the prepared filter and dropped here, so a count crosses JNI once per batch of chunks rather
//! than three times per chunk (next chunk, count, free) and Java builds no object per chunk.

use std::ops::Range;

use vortex_array::dtype::DType;

use crate::error::Error;
use crate::error::Result;
use crate::io::file::OpenFile;
use crate::predicate::Predicate;
use crate::predicate::prepared::LeafSpec;
use crate::predicate::prepared::PreparedFilter;
use crate::scan::Scan;
use crate::scan::chunk::Chunk;

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

/// One split of a [`count_splits`] batch: rows of an open file, and the size and modification
/// time its file had when the split was planned (`None`: not checked).
pub struct SplitRows<'a> {
    pub file: &'a OpenFile,
    pub rows: Range<u64>,
    pub planned: Option<(u64, i64)>,
}

/// The split a [`count_splits`] batch stopped at: its index, what was counted of it, and its scan
/// and filter for the caller to go on with.
pub struct Unfinished {
    pub index: usize,
    pub counted: Counted,
    pub scan: Scan,
    pub filter: PreparedFilter,
}

/// Counts the rows a filter (`shape` over `leaves`, every leaf native) selects in each of
/// `splits`, in order, writing each split's count to `counts`: its file checked unchanged, a scan
/// of `columns` over its rows pruned by `prune`, and up to `max_chunks` chunks counted
/// ([`count_chunks`]). Stops at the first split with chunks left or a declined chunk and hands it
/// over. The filter is prepared once for every run of splits whose columns have the same dtypes,
/// so a dataset's small files cost a scan each and nothing more.
pub fn count_splits(
    splits: &[SplitRows<'_>],
    columns: &[String],
    prune: Option<&Predicate>,
    shape: &[i32],
    leaves: &[LeafSpec],
    max_chunks: usize,
    counts: &mut [u64],
) -> Result<Option<Unfinished>> {
    if counts.len() < splits.len() {
        return Err(Error::Invalid(format!("{} counts for {} splits", counts.len(), splits.len())));
    }
    let prune_key = prune.map(Predicate::encode);
    let prune = prune.zip(prune_key.as_deref());
    let mut prepared: Option<PreparedFilter> = None;
    let mut prepared_for: Vec<DType> = Vec::new();
    let mut ahead: Vec<Option<Result<Scan>>> = Vec::new();
    for (index, split) in splits.iter().enumerate() {
        if index >= ahead.len() && splits[index..].iter().filter(|s| s.file.is_remote()).take(2).count() == 2 {
            ahead.resize_with(index, || None);
            ahead.extend(open_ahead(&splits[index..(index + OPENED_AHEAD).min(splits.len())], columns, prune));
        }
        let mut scan = match ahead.get_mut(index).and_then(Option::take) {
            Some(opened) => opened?,
            None => open_split(split, columns, prune)?,
        };
        let filter = match prepared.take() {
            Some(f) if scan.dtypes() == prepared_for.as_slice() => f,
            _ => {
                prepared_for = scan.dtypes().to_vec();
                scan.prepare_filter(shape, leaves.to_vec())?
            }
        };
        let counted = count_chunks(&mut scan, &filter, max_chunks)?;
        counts[index] = counted.rows;
        if !matches!(counted.stop, Stop::End) {
            return Ok(Some(Unfinished { index, counted, scan, filter }));
        }
        prepared = Some(filter);
    }
    Ok(None)
}

/// A split's scan, its file first checked against the plan.
fn open_split(split: &SplitRows<'_>, columns: &[String], prune: Option<(&Predicate, &[u8])>) -> Result<Scan> {
    if let Some((size, modified_millis)) = split.planned {
        split.file.check_unchanged(size, modified_millis)?;
    }
    Scan::open_rows_keyed(split.file, columns, prune, split.rows.clone())
}

/// Splits whose scans [`count_splits`] opens at once when they read objects, at most.
const OPENED_AHEAD: usize = 16;

/// The scans of the objects among `splits`, opened side by side: opening one waits on the store
/// (its zone maps), then requests its segments ahead, so a batch of objects has its round trips
/// overlap rather than follow one another. Splits of local files are left to the scanning
/// thread (`None`): their reads belong to it.
fn open_ahead(splits: &[SplitRows<'_>], columns: &[String], prune: Option<(&Predicate, &[u8])>) -> Vec<Option<Result<Scan>>> {
    std::thread::scope(|scope| {
        let opening: Vec<_> = splits
            .iter()
            .map(|split| {
                split.file.is_remote().then(|| {
                    std::thread::Builder::new()
                        .name("vortex4j-open-scan".into())
                        .spawn_scoped(scope, move || open_split(split, columns, prune))
                })
            })
            .collect();
        opening
            .into_iter()
            .map(|spawned| {
                spawned.map(|spawned| match spawned {
                    Ok(handle) => handle.join().unwrap_or_else(|_| Err(Error::Invalid("opening a scan panicked".into()))),
                    Err(e) => Err(Error::Invalid(format!("cannot start a thread to open a scan: {e}"))),
                })
            })
            .collect()
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::predicate::CmpOp;
    use crate::predicate::Literal;
    use crate::predicate::Predicate;
    use crate::predicate::prepared::LeafSpec;

    /// A one-leaf filter on column `s` of the fixture's scan (`id`, `s`, `v`), prepared as Java
    /// does, on a scan before its first chunk; `external`: sent without an encoding (Java's leaf).
    fn prepare(file: &crate::io::file::OpenFile, names: &[String], leaf: &Predicate, external: bool) -> PreparedFilter {
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
        let file = crate::io::file::open(path).unwrap();
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

    /// Three files' splits counted in batches add up, split by split, to vortex's own filtered
    /// scan of each file, whatever the chunks allowed per split: a split with chunks left comes
    /// back with its scan and filter, which count the rest. A file whose size or modification
    /// time is not the planned one fails the batch, naming the file.
    #[test]
    fn split_batches_count_each_split_as_vortex_filtered_scan() {
        let dir = std::env::temp_dir().join(format!("vortex4j-count-splits-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let mut files = Vec::new();
        let mut word = None;
        for (k, chunks) in [2usize, 3, 1].into_iter().enumerate() {
            let path = dir.join(format!("f{k}.vortex")).to_str().unwrap().to_string();
            let strings = crate::fixture::write_dict_fixture(&path, chunks, 1500, 7 + k as u64, false).unwrap();
            word = word.or_else(|| strings.iter().flatten().next().cloned());
            let meta = std::fs::metadata(&path).unwrap();
            let millis = meta.modified().unwrap().duration_since(std::time::UNIX_EPOCH).unwrap().as_millis() as i64;
            files.push((crate::io::file::open(&path).unwrap(), meta.len(), millis));
        }
        let names: Vec<String> = ["id", "s", "v"].map(String::from).to_vec();
        let eq = Predicate::Compare { column: "s".into(), op: CmpOp::Eq, value: Literal::Utf8(word.unwrap()) };
        let want: Vec<u64> = files.iter().map(|(f, _, _)| crate::scan::filtered_rows(f, &eq).unwrap().len() as u64).collect();
        assert!(want.iter().all(|&n| n > 0), "{want:?}");
        let leaves = [LeafSpec { encoded: Some(eq.clone().normalize().encode()), column: 1 }];
        // The second file's split is its last two chunks and some rows of its first.
        let ranges = [0..3000u64, 1000..4500, 0..1500];
        let want_ranges: Vec<u64> = {
            let rows = crate::scan::filtered_rows(&files[1].0, &eq).unwrap();
            vec![want[0], rows.iter().filter(|&&r| (1000..4500).contains(&r)).count() as u64, want[2]]
        };
        let splits: Vec<SplitRows<'_>> = files
            .iter()
            .zip(&ranges)
            .map(|((file, size, millis), rows)| SplitRows { file, rows: rows.clone(), planned: Some((*size, *millis)) })
            .collect();
        for max in [1, 2, 16] {
            let mut got = vec![0u64; 3];
            let mut from = 0;
            let mut calls = 0;
            while from < splits.len() {
                calls += 1;
                let mut counts = vec![0u64; 3];
                let stopped = count_splits(&splits[from..], &names, None, &[2, 0], &leaves, max, &mut counts[from..]).unwrap();
                let Some(mut unfinished) = stopped else {
                    for i in from..3 {
                        got[i] = counts[i];
                    }
                    break;
                };
                let i = from + unfinished.index;
                for j in from..i {
                    got[j] = counts[j];
                }
                assert!(matches!(unfinished.counted.stop, Stop::Limit), "max {max}");
                assert_eq!(unfinished.counted.chunks, max as u64);
                got[i] = unfinished.counted.rows;
                loop {
                    let more = count_chunks(&mut unfinished.scan, &unfinished.filter, 16).unwrap();
                    got[i] += more.rows;
                    if matches!(more.stop, Stop::End) {
                        break;
                    }
                }
                from = i + 1;
            }
            assert_eq!(got, want_ranges, "max {max}");
            // The splits hold 2, 3 and 1 chunks; a split stops its call when it used up `max`.
            assert_eq!(calls, if max == 16 { 1 } else { 3 }, "max {max}");
        }

        let stale = [SplitRows { file: &files[0].0, rows: 0..3000, planned: Some((files[0].1 + 1, files[0].2)) }];
        let err = count_splits(&stale, &names, None, &[2, 0], &leaves, 16, &mut [0]).err().expect("a changed file fails");
        assert!(err.to_string().contains("f0.vortex") && err.to_string().contains("changed"), "{err}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
