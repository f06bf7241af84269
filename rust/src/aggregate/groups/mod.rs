//! The grouping schemes of a chunk's selected rows: none (one group), one dictionary (the group is
//! the slot), several dictionaries ([`composite`] codes), keys mixing dictionaries with integer
//! and date columns ([`tuples`]).

mod composite;
mod tuples;

use vortex_array::ArrayRef;
use vortex_array::ExecutionCtx;
use vortex_error::VortexResult;

use super::columns::Decodings;
use super::keys::KeyColumn;
use super::keys::KeyValues;
use super::keys::int_keys;
use super::keys::key_slots;

/// Groups of a chunk: the group of each selected row, the number of groups and, with several
/// keys, each group's composite code or, when a key is an integer column, each group's key values
/// (see [`groups`]).
pub(super) struct Groups {
    pub(in crate::aggregate) gids: Vec<u32>,
    pub(in crate::aggregate) count: usize,
    pub(in crate::aggregate) codes: Vec<u64>,
    pub(in crate::aggregate) keys: Vec<KeyValues>,
}

/// Composite codes (or, grouping by values, parent groups × key values) up to this many are
/// numbered through a table, more through a hash map.
const DENSE_CODES: u64 = 1 << 16;

/// Groups the selected rows by the dictionary codes of `keys`. Without a key all rows are one
/// group; with one key group `c` is code `c` and the last group (index `dictionary length`) the
/// null key. With several keys each row's composite code is `slot_0 + (n_0 + 1) * (slot_1 +
/// (n_1 + 1) * (...))` (`n_k` the length of key `k`'s dictionary, slot `n_k` its null) and the
/// groups, numbered in first-seen order, carry their composite codes. Several keys of which some
/// are integer (or date) columns are grouped by their values ([`tuples`]). `None` when one
/// key is not a dictionary of strings, when a key is neither that nor an integer column fitting
/// i64 nor a date in days, or when the composite codes of dictionary keys would not fit 64 bits.
pub(super) fn groups(
    keys: &[&ArrayRef],
    len: usize,
    rows: &[u32],
    decodings: &mut Decodings<'_>,
    ctx: &mut ExecutionCtx,
) -> VortexResult<Option<Groups>> {
    if keys.is_empty() {
        let gids = vec![0; rows.len()];
        return Ok(Some(Groups { gids, count: 1, codes: vec![], keys: vec![] }));
    }
    // Each key's slots (a dictionary of strings) or values (an integer column), made once.
    let mut columns = Vec::with_capacity(keys.len());
    for key in keys {
        columns.push(match key_slots(key, rows, len, ctx)? {
            Some((slots, n)) => KeyColumn::Slots(slots, n),
            // A single key that is not a dictionary stays with Java, which also applies a group
            // key function to it row by row; several keys may mix dictionaries and integers.
            None if keys.len() == 1 => return Ok(None),
            None => match int_keys(key, rows, decodings, ctx)? {
                Some(values) => KeyColumn::Values(values),
                None => return Ok(None),
            },
        });
    }
    if columns.iter().any(|c| matches!(c, KeyColumn::Values(_))) {
        return Ok(Some(tuples::groups(columns, rows.len())));
    }
    let (slots, radix): (Vec<Vec<u32>>, Vec<u64>) = columns
        .into_iter()
        .map(|c| match c {
            KeyColumn::Slots(s, n) => (s, n as u64 + 1),
            KeyColumn::Values(_) => unreachable!("grouped by values above"),
        })
        .unzip();
    if keys.len() == 1 {
        let gids = slots.into_iter().next().unwrap_or_default();
        return Ok(Some(Groups { gids, count: radix[0] as usize, codes: vec![], keys: vec![] }));
    }
    Ok(composite::groups(&slots, &radix, rows.len()))
}
