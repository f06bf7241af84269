//! What Java does with one chunk: export a column, select rows by a leaf, aggregate, show encodings.

use std::sync::Arc;
use std::sync::Mutex;

use vortex_array::ArrayRef;
use vortex_array::IntoArray;

use crate::aggregate::Agg;
use crate::aggregate::Aggregated;
use crate::aggregate::Func;
use crate::cache::dictionaries;
use crate::error::Context;
use crate::error::Error;
use crate::error::Result;
use crate::export::Exported;
use crate::export::export_column;
use crate::export::export_entries;
use crate::filter::LeafPath;
use crate::filter::column_selection;
use crate::filter::dict::CodeTable;
use crate::filter::dict::code_table;
use crate::filter::dict::select_rows;
use crate::filter::dict::string_dictionary;
use crate::predicate::Predicate;
use crate::predicate::like::ascii_only;
use crate::predicate::resolve::Resolved;
use crate::predicate::resolve::resolve;
use crate::runtime::session::execution_ctx;
use crate::scan::ChunkColumns;

/// How many comparisons a resolved leaf makes.
fn comparisons(r: &crate::predicate::resolve::Resolved) -> usize {
    use crate::predicate::resolve::Resolved;
    match r {
        Resolved::Cmp(..) => 1,
        Resolved::And(c) | Resolved::Or(c) => c.iter().map(comparisons).sum(),
        _ => 0,
    }
}

/// Whether a resolved leaf is a range (one between kernel call, see `column_selection`).
fn is_range(r: &crate::predicate::resolve::Resolved) -> bool {
    use crate::predicate::CmpOp;
    use crate::predicate::resolve::Resolved;
    matches!(r, Resolved::And(c) if matches!(c.as_slice(),
        [Resolved::Cmp(CmpOp::Ge | CmpOp::Gt, _), Resolved::Cmp(CmpOp::Le | CmpOp::Lt, _)]))
}

/// A chunk handed to Java, with the exports its ByteBuffers point into.
pub struct Chunk {
    pub data: ChunkColumns,
    exports: Mutex<Vec<Option<Arc<Exported>>>>,
    /// The dictionaries exported on their own ([`Chunk::export_dictionary`]): shared through the
    /// dictionary cache, which may drop them whenever other scans fill it, so the chunk holds
    /// them as long as Java may read them (its views are tied to the chunk's handle).
    dictionaries: Mutex<Vec<Option<Arc<Exported>>>>,
    /// Numeric columns decoded once ([`Chunk::decoded`]): a filter and the keys and aggregates
    /// of the same column read one decoding.
    decoded: Mutex<Vec<Option<ArrayRef>>>,
}

impl Chunk {
    /// Wraps a scanned chunk.
    pub fn new(data: ChunkColumns) -> Self {
        let n = data.columns.len();
        Chunk {
            data,
            exports: Mutex::new(vec![None; n]),
            dictionaries: Mutex::new(vec![None; n]),
            decoded: Mutex::new(vec![None; n]),
        }
    }

    /// Rows in the chunk.
    pub fn len(&self) -> usize {
        self.data.len
    }

    /// Whether the chunk has no rows.
    pub fn is_empty(&self) -> bool {
        self.data.len == 0
    }

    fn check_column(&self, i: usize) -> Result<()> {
        if i < self.data.columns.len() {
            Ok(())
        } else {
            Err(Error::file(
                &self.data.path,
                format!("column index {i} out of range: the scan has {} columns", self.data.columns.len()),
            ))
        }
    }

    /// Column `i` exported for Java; the same export on every call, alive as long as the chunk.
    pub fn export(&self, i: usize) -> Result<Arc<Exported>> {
        self.check_column(i)?;
        let mut exports = self.exports.lock().expect("export lock poisoned");
        if let Some(e) = &exports[i] {
            return Ok(Arc::clone(e));
        }
        let mut ctx = execution_ctx();
        let e = Arc::new(
            export_column(&self.data.columns[i], &self.data.types[i], &self.data.names[i], self.data.file, &mut ctx)
                .map_err(|e| self.in_file(e))?,
        );
        exports[i] = Some(Arc::clone(&e));
        Ok(e)
    }

    /// Column `i` decoded (canonical), when it is a float or integer column; the same decoding on
    /// every call. Vortex's compare kernels on an encoded float column (ALP) unpack it per
    /// comparison, on a slice of a bit-packed integer column they decode it (measured on the
    /// benchmark's `volume`: no faster than decoding, then comparing the values), and a group key
    /// or an aggregate of the column decodes it again: decoded once, a filter, a key and a sum
    /// cost one decoding.
    fn decoded(&self, i: usize) -> Result<Option<ArrayRef>> {
        let column = &self.data.columns[i];
        if !matches!(column.dtype(), vortex_array::dtype::DType::Primitive(..)) {
            return Ok(None);
        }
        let mut decoded = self.decoded.lock().expect("decoding lock poisoned");
        if let Some(d) = &decoded[i] {
            return Ok(Some(d.clone()));
        }
        let d = self.canonical(i, column)?;
        decoded[i] = Some(d.clone());
        Ok(Some(d))
    }

    /// `column` (column `i` of the chunk, or its decoding) in canonical form.
    fn canonical(&self, i: usize, column: &ArrayRef) -> Result<ArrayRef> {
        Ok(column
            .clone()
            .execute::<vortex_array::Canonical>(&mut execution_ctx())
            .context(|| format!("{}: cannot decode column '{}'", self.data.path, self.data.names[i]))?
            .into_array())
    }

    /// Names the file in a decoding error (a corrupt file fails here, long after it opened).
    fn in_file(&self, e: Error) -> Error {
        match e {
            Error::Vortex { context, source } => Error::Vortex {
                context: format!("{}: {context}", self.data.path),
                source,
            },
            other => other,
        }
    }

    /// The dictionary of column `i` exported for Java (shared with every chunk using it, alive at
    /// least as long as this chunk), or `None` if the column is not a dictionary of strings. No
    /// code is decoded.
    pub fn export_dictionary(&self, i: usize) -> Result<Option<Arc<Exported>>> {
        self.check_column(i)?;
        let Some((_, values)) = string_dictionary(&self.data.columns[i]) else {
            return Ok(None);
        };
        let exported = export_entries(&values, &self.data.types[i], &self.data.names[i], self.data.file, &mut execution_ctx())?;
        self.dictionaries.lock().expect("dictionary lock poisoned")[i] = Some(Arc::clone(&exported));
        Ok(Some(exported))
    }

    /// The encoding tree of column `i`, one node a line.
    pub fn encoding_tree(&self, i: usize) -> Result<String> {
        self.check_column(i)?;
        Ok(self.data.columns[i].display_tree_encodings_only().to_string())
    }

    /// The code table of `leaf` (whose encoding is `encoded`, the cache key) on the dictionary
    /// `values` of column `i`, cached per dictionary; `None` when it is not evaluated natively
    /// (ILIKE on a dictionary with non-ASCII entries, see [`crate::predicate::like`]).
    fn table(&self, i: usize, leaf: &Predicate, encoded: &[u8], values: &ArrayRef) -> Result<Option<Arc<CodeTable>>> {
        let dictionary = dictionaries::dictionary(self.data.file, values);
        dictionary.table(encoded, || -> Result<Option<CodeTable>> {
            let context = || format!("{}: column '{}': cannot evaluate {leaf:?} on the dictionary", self.data.path, self.data.names[i]);
            let resolved = resolve(leaf, values.dtype())?;
            let mut ctx = execution_ctx();
            if resolved.has_ilike() && !dictionary.ascii(|| ascii_only(values, &mut ctx)).context(context)? {
                return Ok(None);
            }
            code_table(values, &resolved, &mut ctx).map(Some).context(context)
        })
    }

    /// The dictionary kernel on column `i` (a dictionary of strings): its selection, or why not.
    fn dict_outcome(&self, i: usize, leaf: &Predicate, encoded: &[u8], codes: &ArrayRef, values: &ArrayRef) -> Result<DictOutcome> {
        if values.len() > self.len() {
            return Ok(DictOutcome::LargerThanChunk);
        }
        let Some(table) = self.table(i, leaf, encoded, values)? else {
            return Ok(DictOutcome::Declined);
        };
        select_rows(codes, &table, &mut execution_ctx())
            .map(DictOutcome::Selected)
            .context(|| format!("{}: column '{}': cannot select rows by code", self.data.path, self.data.names[i]))
    }

    /// The selection of a leaf on column `i`, decoded and normalized (`encoded` is its encoding,
    /// the dictionary cache's key) and resolved against the column's dtype (`None`: it cannot be,
    /// so only the dictionary kernel may take it), with the kernel that computed it: by the
    /// dictionary kernel for a dictionary of strings, else (or when the dictionary is larger than
    /// the chunk) by the packed-integer kernel or vortex's compute on the column's encoded data.
    /// `None` when the leaf cannot be evaluated natively (a literal type the expression layer does
    /// not take, an ILIKE on non-ASCII values): the caller evaluates it instead. What a prepared
    /// filter evaluates per chunk.
    pub(crate) fn filter_leaf(
        &self,
        i: usize,
        leaf: &Predicate,
        encoded: &[u8],
        resolved: Option<&Resolved>,
    ) -> Result<Option<(Vec<u64>, LeafPath)>> {
        self.check_column(i)?;
        let column = &self.data.columns[i];
        if crate::filter::list::is_list_leaf(leaf) {
            let mut ctx = execution_ctx();
            return Ok(Some((crate::filter::list::selection(column, &self.data.names[i], leaf, &mut ctx)?, LeafPath::List)));
        }
        if let Some((codes, values)) = string_dictionary(column) {
            match self.dict_outcome(i, leaf, encoded, &codes, &values)? {
                DictOutcome::Selected(words) => return Ok(Some((words, LeafPath::Dictionary))),
                DictOutcome::Declined => return Ok(None),
                DictOutcome::LargerThanChunk => {}
            }
        }
        let Some(resolved) = resolved else {
            return Ok(None);
        };
        let mut ctx = execution_ctx();
        let context = || format!("{}: column '{}': cannot evaluate {leaf:?}", self.data.path, self.data.names[i]);
        // A comparison, range or short IN list on a bit-packed integer column: tested on the
        // packed values, unless the column is decoded already (then comparing the decoding is
        // as cheap, and the keys and aggregates read it anyway).
        if self.decoded.lock().expect("decoding lock poisoned")[i].is_none() {
            if let Some(words) = crate::filter::int::selection(column, resolved, &mut ctx).context(context)? {
                return Ok(Some((words, LeafPath::PackedIntegers)));
            }
        }
        // Validity alone (IS NULL) needs no decoding.
        let decoded = if matches!(resolved, Resolved::NotNull | Resolved::IsNull) { None } else { self.decoded(i)? };
        let column = decoded.as_ref().unwrap_or(column);
        // Several comparisons (BETWEEN, IN) on one column: decode it once rather than have each
        // compare kernel work through the encoding again. ILIKE reads the decoded strings twice
        // (the ASCII check, then the match).
        let canonical;
        let column = if (comparisons(resolved) > 1 && !is_range(resolved)) || resolved.has_ilike() {
            canonical = self.canonical(i, column)?;
            &canonical
        } else {
            column
        };
        if resolved.has_ilike() && !ascii_only(column, &mut ctx).context(context)? {
            return Ok(None);
        }
        let words = column_selection(column, resolved, &mut ctx).context(context)?;
        Ok(Some((words, LeafPath::Compute)))
    }

    /// Selects the rows of dictionary column `i` by a per-code table computed elsewhere (Java
    /// evaluating an expression once per entry), laid out as [`CodeTable::to_words`]: bit `c`
    /// for entry `c`, then the bit for null rows. `None` if the column is not a dictionary of
    /// strings; an error if the table does not fit the dictionary.
    pub fn select_by_table(&self, i: usize, table: &[u64]) -> Result<Option<Vec<u64>>> {
        self.check_column(i)?;
        let Some((codes, values)) = string_dictionary(&self.data.columns[i]) else {
            return Ok(None);
        };
        let table = CodeTable::from_words(table, values.len()).ok_or_else(|| {
            Error::Invalid(format!(
                "column '{}': a code table of {} words for a dictionary of {} entries",
                self.data.names[i],
                table.len(),
                values.len()
            ))
        })?;
        select_rows(&codes, &table, &mut execution_ctx())
            .map(Some)
            .context(|| format!("{}: column '{}': cannot select rows by code", self.data.path, self.data.names[i]))
    }

    /// Aggregates the rows of `selection` (or all) grouped by the codes of columns `keys` (none:
    /// one group); `aggs` are (function ordinal, column index or -1, the float sum so far). `None`
    /// when the native kernel does not take this chunk (see [`crate::aggregate::aggregate`]).
    pub fn aggregate(
        &self,
        keys: &[usize],
        selection: Option<&[u64]>,
        aggs: &[(i32, i32, f64)],
    ) -> Result<Option<Aggregated>> {
        for &k in keys {
            self.check_column(k)?;
        }
        if selection.is_some_and(|s| s.len() != self.len().div_ceil(64)) {
            return Err(Error::Invalid(format!("a selection of the wrong length for {} rows", self.len())));
        }
        // Each column as the chunk holds it: decoded where a filter already decoded it (the
        // aggregate then reads that), else encoded (the aggregate decodes it, or takes the rows
        // of a sparse selection).
        let column = |i: usize| -> ArrayRef {
            let decoded = self.decoded.lock().expect("decoding lock poisoned")[i].clone();
            decoded.unwrap_or_else(|| self.data.columns[i].clone())
        };
        let (mut funcs, mut columns) = (Vec::with_capacity(aggs.len()), Vec::with_capacity(aggs.len()));
        for &(f, c, _) in aggs {
            funcs.push(Func::from_ordinal(f).ok_or_else(|| Error::Invalid(format!("unknown aggregate function {f}")))?);
            columns.push(if c < 0 {
                None
            } else {
                self.check_column(c as usize)?;
                Some(column(c as usize))
            });
        }
        let specs: Vec<Agg> = aggs
            .iter()
            .zip(funcs.into_iter().zip(&columns))
            .map(|(&(_, _, start), (func, c))| Agg { func, column: c.as_ref(), start })
            .collect();
        let keys: Vec<ArrayRef> = keys.iter().map(|&k| column(k)).collect();
        let keys: Vec<&ArrayRef> = keys.iter().collect();
        crate::aggregate::aggregate(&keys, self.len(), selection, &specs, &mut execution_ctx())
            .context(|| format!("{}: cannot aggregate a chunk", self.data.path))
    }
}

/// What the dictionary kernel made of a leaf.
enum DictOutcome {
    Selected(Vec<u64>),
    /// More entries than rows: evaluating the column as a whole is cheaper.
    LargerThanChunk,
    /// Not evaluated natively at all (an ILIKE on non-ASCII entries).
    Declined,
}
