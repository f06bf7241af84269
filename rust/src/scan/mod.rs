//! Chunked scans with column projection, and vortex's own filtered scan (the reference).
//!
//! A scan yields the projected columns of the row ranges zone maps keep, chunk by chunk
//! ([`Scan`]); [`chunk`] is what is done with one chunk (filters, aggregates, exports),
//! [`count`] a filtered count over many chunks and splits in one call, [`statistics`] the
//! footer's per-column statistics.

pub mod chunk;
pub(crate) mod count;
pub(crate) mod statistics;

use std::collections::VecDeque;
use std::sync::Arc;
use std::ops::Range;
use std::pin::Pin;

use vortex_array::ArrayRef;
use vortex_mask::Mask;
use vortex_array::arrays::Struct;
use vortex_array::arrays::StructArray;
use vortex_array::arrays::struct_::StructArrayExt;
use vortex_array::expr::Expression;
use vortex_array::expr::root;
use vortex_array::expr::select;
use vortex_array::expr::pack;
use vortex_array::dtype::Nullability;
use vortex_array::dtype::FieldNames;
use vortex_array::dtype::DType;
use vortex_array::expr::BoundExpression;
use vortex_error::VortexResult;
use vortex_layout::layouts::row_idx::row_idx;

use crate::cache::memo::Memo;
use crate::error::Context;
use crate::error::Error;
use crate::error::Result;
use crate::io::file::OpenFile;
use crate::predicate::Predicate;
use crate::predicate::prepared::LeafSpec;
use crate::predicate::prepared::PreparedFilter;
use crate::runtime::session::RUNTIME;
use crate::runtime::session::block_on;
use crate::runtime::session::execution_ctx;
use crate::types::ColumnType;

type SplitFuture = Pin<Box<dyn Future<Output = VortexResult<Option<ArrayRef>>> + Send>>;

/// The chunks of one row range still to read: vortex's split futures, polled on the scanning
/// thread one after the other (no task spawned; segments are read where they are awaited,
/// `io::local_file`), so a chunk is read and decoded by the thread that asked for it.
type Chunks = VecDeque<SplitFuture>;

/// The chunks of the range being scanned: read by vortex, or kept from an earlier scan.
enum Pending {
    Reading(Chunks),
    Kept(VecDeque<ArrayRef>),
}

/// A scan in progress: the projected chunks of the row ranges that pruning kept, in order.
pub struct Scan {
    file: OpenFile,
    names: Vec<String>,
    /// The projection of `names`, shared by the file's scans of the same columns.
    projection: Arc<Projection>,
    /// Row ranges still to scan.
    ranges: VecDeque<Range<u64>>,
    /// The range being scanned and the file row of its next chunk.
    current: Option<(Pending, u64)>,
    /// Rows zone maps proved unselected (skipped without reading).
    pruned_rows: u64,
    /// Keeps the file's segments remembered while the scan is open (after `current`, whose
    /// reads it covers).
    _reading: Option<crate::io::local_file::Reading>,
    /// For an object in a store: told when every row was read, so a scan dropped before stops
    /// the object's reads ahead.
    scanning: Option<crate::io::remote_file::Scanning>,
}

/// What every scan of the same columns of a file computes alike: the column types, the bound and
/// optimized projection, and the natural split boundaries of the projected columns (what vortex's
/// scan would compute by walking the layout on every scan; computed by the first scan that reads
/// a range). Remembered per file and columns ([`Projections`]): a dataset's splits and repeated
/// queries open many scans of the same columns (100 files: 100 scans per query).
pub struct Projection {
    /// Process-unique: a kept chunk's key ([`crate::cache::segments::Item::Chunk`]).
    id: u64,
    types: Vec<ColumnType>,
    /// The columns' dtypes, as their chunks' arrays have them: what a filter is prepared against.
    dtypes: Vec<DType>,
    bound: BoundExpression,
    boundaries: std::sync::OnceLock<Arc<[u64]>>,
}

/// One chunk of a scan: the projected columns over the same rows.
pub struct ChunkColumns {
    pub path: String,
    /// The open file's id ([`OpenFile::id`]): its dictionaries' key in [`crate::cache::dictionaries`].
    pub file: u64,
    /// The file row number of the chunk's first row.
    pub first_row: u64,
    pub names: Vec<String>,
    pub types: Vec<ColumnType>,
    pub columns: Vec<ArrayRef>,
    pub len: usize,
}

fn bind(file: &OpenFile, expr: Expression) -> Result<BoundExpression> {
    expr.bind(file.file.dtype())
        .and_then(|e| e.optimize_recursive())
        .context(|| format!("{}: cannot plan the scan", file.path))
}

impl Scan {
    /// Starts a scan of `columns` (in that order) of `file`. With `prune`, the file's natural
    /// splits whose zone-map statistics prove that no row satisfies it are skipped unread; the
    /// rows of the other splits all come back (the caller still filters them).
    pub fn open(file: &OpenFile, columns: &[String], prune: Option<&Predicate>) -> Result<Self> {
        Self::open_rows(file, columns, prune, 0..file.row_count())
    }

    /// [`Scan::open`] restricted to the file rows `rows` (a dataset split). Chunks are clipped to
    /// `rows`, so when `rows` starts and ends on natural split boundaries
    /// ([`natural_splits`]) no chunk straddles two such ranges.
    pub fn open_rows(file: &OpenFile, columns: &[String], prune: Option<&Predicate>, rows: Range<u64>) -> Result<Self> {
        let key = prune.map(Predicate::encode);
        Self::open_rows_keyed(file, columns, prune.zip(key.as_deref()), rows)
    }

    /// [`Scan::open_rows`] with the prune predicate's encoding (the key of the file's zone-map
    /// results) given: the scans of a dataset's splits encode their shared predicate once.
    pub fn open_rows_keyed(
        file: &OpenFile,
        columns: &[String],
        prune: Option<(&Predicate, &[u8])>,
        rows: Range<u64>,
    ) -> Result<Self> {
        let projection = file.projections().get_or_compute(columns, || -> Result<Arc<Projection>> {
            let types = columns.iter().map(|name| Ok(file.column_info(name)?.ty)).collect::<Result<Vec<_>>>()?;
            let dtypes = columns.iter().map(|name| file.column_dtype(name)).collect::<Result<Vec<_>>>()?;
            let bound = bind(file, projection(file, columns)?)?;
            static NEXT_ID: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);
            let id = NEXT_ID.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            Ok(Arc::new(Projection { id, types, dtypes, bound, boundaries: std::sync::OnceLock::new() }))
        })?;
        let end = rows.end.min(file.row_count());
        let rows = rows.start.min(end)..end;
        let everything = || Arc::new(vec![0..file.row_count()]);
        // Pruning is an optimization: a predicate vortex cannot evaluate on zone maps (say, on a
        // column type the expression layer does not take) just means no chunk is skipped.
        let kept = prune.map_or_else(everything, |(p, key)| kept_splits(file, Some(p), key).unwrap_or_else(|_| everything()));
        let mut ranges: VecDeque<Range<u64>> = VecDeque::new();
        let mut kept_rows = 0;
        for split in kept.iter().cloned() {
            let clipped = split.start.max(rows.start)..split.end.min(rows.end);
            if clipped.start >= clipped.end {
                continue;
            }
            kept_rows += clipped.end - clipped.start;
            match ranges.back_mut() {
                Some(last) if last.end == clipped.start => last.end = clipped.end,
                _ => ranges.push_back(clipped),
            }
        }
        let scanning = file.scanning();
        file.prefetch(columns, &kept, rows.start);
        Ok(Scan {
            file: file.clone(),
            names: columns.to_vec(),
            projection,
            ranges,
            current: None,
            pruned_rows: (rows.end - rows.start) - kept_rows,
            _reading: file.reading(),
            scanning,
        })
    }

    /// A filter prepared for this scan's chunks (see [`PreparedFilter::new`]), before any is read.
    pub fn prepare_filter(&self, shape: &[i32], leaves: Vec<LeafSpec>) -> Result<PreparedFilter> {
        PreparedFilter::new(&self.names, &self.projection.dtypes, shape, leaves)
    }

    /// The scanned columns' dtypes: two scans with equal dtypes take the same prepared filter.
    pub fn dtypes(&self) -> &[DType] {
        &self.projection.dtypes
    }

    /// Rows skipped by zone-map pruning.
    pub fn pruned_rows(&self) -> u64 {
        self.pruned_rows
    }

    /// The next chunk, or `None` at the end.
    pub fn next_chunk(&mut self) -> Result<Option<ChunkColumns>> {
        let path = &self.file.path;
        let file_key = self.file.segment_key();
        loop {
            if let Some((pending, next_row)) = &mut self.current {
                let (next, read) = match pending {
                    Pending::Reading(chunks) => (chunks.pop_front().map(block_on), true),
                    Pending::Kept(arrays) => (arrays.pop_front().map(|a| Ok(Some(a))), false),
                };
                if let Some(chunk) = next {
                    let chunk = chunk.context(|| format!("{path}: cannot read the next chunk"))?;
                    // No filter: a split yields its rows (`None` only for a split without any).
                    let Some(chunk) = chunk else { continue };
                    let len = chunk.len();
                    let first_row = *next_row;
                    *next_row += len as u64;
                    let columns = split_columns(&chunk)
                        .context(|| format!("{path}: cannot split a chunk into columns"))?;
                    if columns.len() != self.names.len() {
                        return Err(Error::file(
                            path,
                            format!("scan returned {} columns, expected {}", columns.len(), self.names.len()),
                        ));
                    }
                    if read {
                        let rows = (first_row, first_row + len as u64);
                        let bytes = (chunk.nbytes() as usize).max(1);
                        crate::cache::segments::keep_chunk(file_key, self.projection.id, rows, &chunk, bytes);
                    }
                    return Ok(Some(ChunkColumns {
                        path: path.clone(),
                        file: self.file.id(),
                        first_row,
                        names: self.names.clone(),
                        types: self.projection.types.clone(),
                        columns,
                        len,
                    }));
                }
                self.current = None;
            }
            let Some(range) = self.ranges.pop_front() else {
                if let Some(s) = &mut self.scanning {
                    s.finished();
                }
                return Ok(None);
            };
            let start = range.start;
            // Every chunk of the range kept by an earlier scan: no layout reader, segment or
            // decoding is touched (what a repeated query over many small files mostly paid for).
            if let Some(boundaries) = self.projection.boundaries.get() {
                let kept: Option<VecDeque<ArrayRef>> = chunk_rows(boundaries, &range)
                    .map(|rows| crate::cache::segments::get_chunk(file_key, self.projection.id, rows))
                    .collect();
                if let Some(kept) = kept {
                    self.current = Some((Pending::Kept(kept), start));
                    continue;
                }
            }
            let builder = self.file.scan()?.with_projection(self.projection.bound.clone());
            let boundaries = match self.projection.boundaries.get() {
                Some(b) => Arc::clone(b),
                None => {
                    // Two scans may both compute them; either result is the same.
                    let b: Arc<[u64]> = builder.full_file_splits().context(|| format!("{path}: cannot plan splits"))?.into();
                    Arc::clone(self.projection.boundaries.get_or_init(|| b))
                }
            };
            let builder = builder.with_natural_splits(boundaries).with_row_range(range);
            let chunks: Chunks = builder
                .prepare()
                .and_then(|scan| scan.execute(None))
                .context(|| format!("{path}: cannot start a scan"))?
                .into();
            self.current = Some((Pending::Reading(chunks), start));
        }
    }
}

/// The file rows of the chunks vortex's scan of `range` yields, given the natural split
/// `boundaries` (as its `split_ranges` cuts them: the range's ends and the boundaries inside it).
fn chunk_rows(boundaries: &[u64], range: &Range<u64>) -> impl Iterator<Item = (u64, u64)> {
    let inside = boundaries.iter().copied().filter(|&b| b > range.start && b < range.end);
    let points: Vec<u64> = std::iter::once(range.start).chain(inside).chain(std::iter::once(range.end)).collect();
    (0..points.len() - 1).map(move |i| (points[i], points[i + 1])).filter(|(a, b)| a < b)
}

/// The file's natural splits (the row ranges its layout is chunked by, ascending), without those
/// whose zone maps rule out `prune`. Scans yield chunks within these ranges. Remembered per open
/// file and predicate ([`PruneCache`]).
pub fn natural_splits(file: &OpenFile, prune: Option<&Predicate>) -> Result<Vec<Range<u64>>> {
    // An encoding is never empty (it starts with its version): the empty key is "no predicate".
    let key = prune.map_or_else(Vec::new, Predicate::encode);
    Ok(kept_splits(file, prune, &key)?.as_ref().clone())
}

/// [`natural_splits`] for a prune predicate encoded as `key` (empty for none), as the file keeps them.
fn kept_splits(file: &OpenFile, prune: Option<&Predicate>, key: &[u8]) -> Result<Arc<Vec<Range<u64>>>> {
    file.pruned().get_or_compute(key, || Ok(Arc::new(evaluate_zone_maps(file, prune)?)))
}

fn evaluate_zone_maps(file: &OpenFile, prune: Option<&Predicate>) -> Result<Vec<Range<u64>>> {
    let path = &file.path;
    let splits = file.file.splits().context(|| format!("{path}: cannot plan splits"))?;
    let Some(prune) = prune else {
        return Ok(splits);
    };
    let expr = bind(file, crate::predicate::expression::to_expression(file, prune)?)?;
    let reader = file.layout_reader()?;
    let mut kept = Vec::with_capacity(splits.len());
    for split in splits {
        let len = (split.end - split.start) as usize;
        let mask = reader
            .pruning_evaluation(&split, &expr, Mask::new_true(len))
            .context(|| format!("{path}: cannot evaluate zone maps"))?;
        let mask = block_on(mask).context(|| format!("{path}: cannot evaluate zone maps"))?;
        if !mask.all_false() {
            kept.push(split);
        }
    }
    Ok(kept)
}

/// Keys remembered per file and memo ([`PruneCache`], [`Projections`]).
pub(crate) const FILE_MEMO_KEYS: usize = 64;

/// The natural splits zone maps keep, per predicate encoding: planning a dataset's splits and
/// opening the scan of each split evaluate the zone maps once per file and filter rather than
/// once per split and query.
pub(crate) type PruneCache = Memo<Vec<u8>, Arc<Vec<Range<u64>>>>;

/// The [`Projection`]s of a file's scans, by their column names.
pub(crate) type Projections = Memo<Vec<String>, Arc<Projection>>;

/// The fields of a struct chunk, keeping each field's encoding.
fn split_columns(chunk: &ArrayRef) -> VortexResult<Vec<ArrayRef>> {
    if let Some(s) = chunk.as_opt::<Struct>() {
        return Ok((0..s.struct_fields().nfields()).map(|i| s.unmasked_field(i).clone()).collect());
    }
    let mut ctx = execution_ctx();
    let s = chunk.clone().execute::<StructArray>(&mut ctx)?;
    Ok((0..s.struct_fields().nfields()).map(|i| s.unmasked_field(i).clone()).collect())
}

/// The struct of `columns` (top-level columns, or struct fields by dotted path, see
/// [`OpenFile::column`]) in that order, named as given: what a scan of them yields per row.
fn projection(file: &OpenFile, columns: &[String]) -> Result<Expression> {
    if columns.iter().all(|name| file.is_top_level(name)) {
        let names: FieldNames = columns.iter().map(|c| c.as_str()).collect();
        return Ok(select(names, root()));
    }
    // Resolving a path also rejects an unknown column, naming it and the file.
    let reads = columns.iter().map(|name| Ok((name.as_str(), file.column(name)?.0))).collect::<Result<Vec<_>>>()?;
    Ok(pack(reads, Nullability::NonNullable))
}

/// vortex's own scan of `file` with `filter` as its filter expression and `projection` (an
/// expression over the file's columns) as what each selected row yields.
fn filtered_scan(
    file: &OpenFile,
    filter: &Predicate,
    projection: Expression,
) -> Result<impl Iterator<Item = VortexResult<ArrayRef>> + use<>> {
    let expr = bind(file, crate::predicate::expression::to_expression(file, filter)?)?;
    let projection = bind(file, projection)?;
    file.scan()?
        .with_filter(expr)
        .with_projection(projection)
        .into_iter(&*RUNTIME)
        .context(|| format!("{}: cannot start the filtered scan", file.path))
}

/// The reference: vortex's own filtered scan projecting the row index. Returns the selected rows
/// in ascending order.
pub fn filtered_rows(file: &OpenFile, filter: &Predicate) -> Result<Vec<u64>> {
    let mut rows = Vec::new();
    let mut ctx = execution_ctx();
    for chunk in filtered_scan(file, filter, row_idx())? {
        let chunk = chunk.context(|| format!("{}: filtered scan failed", file.path))?;
        let idx = chunk
            .execute::<vortex_array::arrays::PrimitiveArray>(&mut ctx)
            .context(|| format!("{}: cannot decode row indices", file.path))?;
        rows.extend_from_slice(idx.as_slice::<u64>());
    }
    Ok(rows)
}

/// vortex's filtered scan projecting `columns` of the selected rows; returns the number of rows.
/// The benchmark baseline: the same filter and columns, vortex doing all the work. With
/// `materialize` the projected columns are decoded (what a consumer reading them pays); without
/// it only the filter is evaluated.
pub fn filtered_count(
    file: &OpenFile,
    filter: &Predicate,
    columns: &[String],
    materialize: bool,
) -> Result<u64> {
    let projection = projection(file, columns)?;
    let mut count = 0u64;
    let mut ctx = execution_ctx();
    for chunk in filtered_scan(file, filter, projection)? {
        let chunk = chunk.context(|| format!("{}: filtered scan failed", file.path))?;
        count += chunk.len() as u64;
        if materialize {
            chunk
                .execute::<vortex_array::Canonical>(&mut ctx)
                .context(|| format!("{}: cannot decode the filtered chunk", file.path))?;
        }
    }
    Ok(count)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::predicate::CmpOp;
    use crate::predicate::Literal;
    use crate::predicate::prepared::LeafSpec;
    use crate::scan::chunk::Chunk;

    /// A scan's chunks are kept and handed to the next scan of the same columns and rows, which
    /// counts the same rows as the generated values say; a range cut inside chunks reads its own
    /// rows rather than the kept whole chunks.
    #[test]
    fn kept_chunks_serve_the_next_scan_of_the_same_rows() {
        let path = std::env::temp_dir().join(format!("vortex4j-kept-chunks-{}.vortex", std::process::id()));
        let path = path.to_str().unwrap();
        let strings = crate::fixture::write_dict_fixture(path, 5, 1000, 11, false).unwrap();
        let file = crate::io::file::open(path).unwrap();
        let names = vec!["s".to_string()];
        let word = strings.iter().flatten().next().unwrap().clone();
        let leaf = Predicate::Compare { column: "s".into(), op: CmpOp::Eq, value: Literal::Utf8(word.clone()) };
        // Per chunk of `rows`: its first row, its column, and how many of its rows are `word`.
        let scan = |rows: Range<u64>| {
            let mut scan = Scan::open_rows(&file, &names, None, rows).unwrap();
            let spec = LeafSpec { encoded: Some(leaf.clone().normalize().encode()), column: 0 };
            let filter = scan.prepare_filter(&[2, 0], vec![spec]).unwrap();
            let mut out = Vec::new();
            while let Some(columns) = scan.next_chunk().unwrap() {
                let (first, array) = (columns.first_row, columns.columns[0].clone());
                let n = filter.count(&Chunk::new(columns), &[None]).unwrap().unwrap();
                out.push((first, array, n));
            }
            out
        };
        let expected = |rows: Range<u64>| {
            let rows = &strings[rows.start as usize..rows.end as usize];
            rows.iter().filter(|s| s.as_deref() == Some(word.as_str())).count() as u64
        };
        let first = scan(0..5000);
        let again = scan(0..5000);
        assert_eq!(first.len(), 5);
        for (a, b) in first.iter().zip(&again) {
            assert_eq!((a.0, a.2), (b.0, b.2));
            assert!(ArrayRef::ptr_eq(&a.1, &b.1), "the chunk at row {} was read again", a.0);
        }
        assert_eq!(again.iter().map(|c| c.2).sum::<u64>(), expected(0..5000));
        let cut = scan(500..2500);
        assert_eq!(cut.iter().map(|c| c.0).collect::<Vec<_>>(), vec![500, 1000, 2000]);
        assert_eq!(cut.iter().map(|c| c.2).sum::<u64>(), expected(500..2500));
        // The cut chunks are kept under their own rows, and serve the same cut again (with the
        // whole chunk in the middle kept first).
        let cut_again = scan(500..2500);
        assert!(ArrayRef::ptr_eq(&cut_again[0].1, &cut[0].1) && ArrayRef::ptr_eq(&cut_again[2].1, &cut[2].1));
        assert!(ArrayRef::ptr_eq(&cut_again[1].1, &first[1].1));
        assert_eq!(cut_again.iter().map(|c| c.2).sum::<u64>(), expected(500..2500));
        let _ = std::fs::remove_file(path);
    }
}
