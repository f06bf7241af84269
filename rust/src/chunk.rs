//! What Java does with one chunk: export a column, filter a dictionary column, show encodings.

use std::sync::Arc;
use std::sync::Mutex;

use crate::dict_cache;
use crate::dict_filter::CodeTable;
use crate::dict_filter::code_table;
use crate::dict_filter::column_selection;
use crate::dict_filter::select_rows;
use crate::dict_filter::string_dictionary;
use crate::error::Context;
use crate::error::Error;
use crate::error::Result;
use crate::export::Exported;
use crate::export::export_column;
use crate::predicate::Predicate;
use crate::resolve::resolve;
use crate::scan::ChunkColumns;
use crate::session::execution_ctx;

/// A chunk handed to Java, with the exports its ByteBuffers point into.
pub struct Chunk {
    pub data: ChunkColumns,
    exports: Mutex<Vec<Option<Arc<Exported>>>>,
}

impl Chunk {
    /// Wraps a scanned chunk.
    pub fn new(data: ChunkColumns) -> Self {
        let n = data.columns.len();
        Chunk {
            data,
            exports: Mutex::new(vec![None; n]),
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
            export_column(&self.data.columns[i], &self.data.types[i], &self.data.names[i], &mut ctx)
                .map_err(|e| self.in_file(e))?,
        );
        exports[i] = Some(Arc::clone(&e));
        Ok(e)
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

    /// The encoding tree of column `i`, one node a line.
    pub fn encoding_tree(&self, i: usize) -> Result<String> {
        self.check_column(i)?;
        Ok(self.data.columns[i].display_tree_encodings_only().to_string())
    }

    /// Decodes a leaf predicate sent for column `i`.
    fn leaf(&self, i: usize, encoded: &[u8]) -> Result<Predicate> {
        self.check_column(i)?;
        let leaf = Predicate::decode(encoded)?.normalize();
        match leaf.column() {
            Some(c) if c == self.data.names[i] => Ok(leaf),
            Some(c) => Err(Error::Invalid(format!(
                "predicate on column '{c}' sent for column '{}'",
                self.data.names[i]
            ))),
            None => Err(Error::Invalid("the dictionary filter takes one comparison, not AND/OR/NOT".into())),
        }
    }

    /// The code table of `leaf` on column `i`'s dictionary (cached per dictionary), with the
    /// column's codes; `None` if the column is not a dictionary of strings.
    fn table(&self, i: usize, encoded: &[u8]) -> Result<Option<(vortex_array::ArrayRef, Arc<CodeTable>)>> {
        let leaf = self.leaf(i, encoded)?;
        let Some((codes, values)) = string_dictionary(&self.data.columns[i]) else {
            return Ok(None);
        };
        let dictionary = dict_cache::dictionary(&values);
        let table = dictionary.table(encoded, || -> Result<CodeTable> {
            let resolved = resolve(&leaf, values.dtype())?;
            code_table(&values, &resolved, &mut execution_ctx())
                .context(|| {
                    format!("{}: column '{}': cannot evaluate {leaf:?} on the dictionary", self.data.path, self.data.names[i])
                })
        })?;
        Ok(Some((codes, table)))
    }

    /// The dictionary filter: the selection bitmap of `leaf` on column `i`, or `None` to decline
    /// (not a dictionary of strings, or a dictionary larger than the chunk).
    pub fn dict_filter(&self, i: usize, encoded: &[u8]) -> Result<Option<Vec<u64>>> {
        if let Some((_, values)) = string_dictionary(self.data.columns.get(i).ok_or_else(|| {
            Error::Invalid(format!("column index {i} out of range"))
        })?) {
            if values.len() > self.len() {
                return Ok(None);
            }
        }
        let Some((codes, table)) = self.table(i, encoded)? else {
            return Ok(None);
        };
        select_rows(&codes, &table, &mut execution_ctx())
            .map(Some)
            .context(|| format!("{}: column '{}': cannot select rows by code", self.data.path, self.data.names[i]))
    }

    /// The selection of `leaf` on column `i` computed natively: by the dictionary kernel for a
    /// dictionary of strings (`None` when it declines, see [`Chunk::dict_filter`]), else by
    /// vortex's compute on the column's encoded data. `None` also when the leaf cannot be
    /// evaluated natively (e.g. a literal type the expression layer does not take): the caller
    /// evaluates it instead.
    pub fn filter(&self, i: usize, encoded: &[u8]) -> Result<Option<Vec<u64>>> {
        self.check_column(i)?;
        let column = &self.data.columns[i];
        if string_dictionary(column).is_some() {
            return self.dict_filter(i, encoded);
        }
        let leaf = self.leaf(i, encoded)?;
        let Ok(resolved) = resolve(&leaf, column.dtype()) else {
            return Ok(None);
        };
        column_selection(column, &resolved, &mut execution_ctx())
            .map(Some)
            .context(|| format!("{}: column '{}': cannot evaluate {leaf:?}", self.data.path, self.data.names[i]))
    }

    /// The per-code table of `leaf` on column `i` as bitmap words, or `None` if the column is
    /// not a dictionary of strings. Bit `c` is dictionary entry `c`; the bit after the last entry
    /// says whether rows with a null code are selected.
    pub fn code_table(&self, i: usize, encoded: &[u8]) -> Result<Option<Vec<u64>>> {
        Ok(self.table(i, encoded)?.map(|(_, t)| t.to_words()))
    }
}
