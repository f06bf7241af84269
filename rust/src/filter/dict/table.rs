//! The per-code table: a leaf evaluated once per dictionary entry.

use vortex_array::ArrayRef;
use vortex_array::ExecutionCtx;
use vortex_error::VortexResult;

use crate::filter::bits::bools_to_words;
use crate::filter::column_selection;
use crate::predicate::resolve::Resolved;

/// One boolean per dictionary code: whether the leaf is true for that entry.
#[derive(Debug, Clone, PartialEq)]
pub struct CodeTable {
    /// `matches[c]` for each code `c` of the dictionary.
    pub matches: Vec<bool>,
    /// Whether a row with a null code is selected (the leaf's value on null).
    pub null_rows: bool,
    /// How many entries match.
    pub true_count: usize,
}

impl CodeTable {
    fn new(matches: Vec<bool>, null_rows: bool) -> Self {
        let true_count = matches.iter().filter(|&&m| m).count();
        CodeTable {
            matches,
            null_rows,
            true_count,
        }
    }

    /// The table from LSB-first words laid out as [`CodeTable::to_words`] writes them, for a
    /// dictionary of `entries` entries; `None` if `words` has not exactly that many bits' words.
    pub fn from_words(words: &[u64], entries: usize) -> Option<Self> {
        if words.len() != (entries + 1).div_ceil(64) {
            return None;
        }
        let bit = |i: usize| words[i / 64] >> (i % 64) & 1 == 1;
        Some(CodeTable::new((0..entries).map(bit).collect(), bit(entries)))
    }

    /// The table as LSB-first bitmap words (for Java's per-code aggregates): bit `c` for
    /// entry `c`, then one more bit (index `matches.len()`) for rows with a null code.
    pub fn to_words(&self) -> Vec<u64> {
        let mut bits = self.matches.clone();
        bits.push(self.null_rows);
        bools_to_words(&bits)
    }
}

/// Builds the per-code table of `leaf` (already resolved) over the dictionary `values`: the same
/// evaluation as for a whole column, on the entries.
pub fn code_table(values: &ArrayRef, leaf: &Resolved, ctx: &mut ExecutionCtx) -> VortexResult<CodeTable> {
    let words = column_selection(values, leaf, ctx)?;
    let matches = (0..values.len()).map(|c| words[c / 64] >> (c % 64) & 1 == 1).collect();
    Ok(CodeTable::new(matches, true_on_null(leaf)))
}

/// The leaf's value on a null row: true only for IS NULL and forms that select everything.
fn true_on_null(leaf: &Resolved) -> bool {
    match leaf {
        Resolved::Every | Resolved::IsNull => true,
        Resolved::False | Resolved::NotNull | Resolved::Cmp(..) | Resolved::InSet { .. } | Resolved::Like { .. } => false,
        Resolved::And(c) => c.iter().all(true_on_null),
        Resolved::Or(c) => c.iter().any(true_on_null),
    }
}
