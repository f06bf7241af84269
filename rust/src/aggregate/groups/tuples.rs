//! Grouping by several keys of which some are integer (or date) columns: by their values, one
//! key at a time.

use super::DENSE_CODES;
use super::Groups;
use crate::aggregate::keys::KeyColumn;
use crate::aggregate::keys::KeyValues;

/// Groups the selected `rows` by several keys, each dictionary slots or integer values, one key
/// at a time: a row's group after key `k` is a dense id of (its group after key `k - 1`, its value
/// of key `k`), numbered through a table where the groups so far times the key's range of values
/// are few (a dictionary, a narrow range of integers), else through a hash map. The final groups
/// are numbered in first-seen order and carry each key's value ([`KeyValues`]; a dictionary key's
/// value is its slot).
pub(super) fn groups(columns: Vec<KeyColumn>, rows: usize) -> Groups {
    let width = columns.len();
    let mut gids = vec![0u32; rows];
    // Per key, each group's parent (its group over the keys before) and its value of the key.
    let mut levels: Vec<(Vec<u32>, KeyValues)> = Vec::with_capacity(width);
    for column in columns {
        let column = match column {
            KeyColumn::Values(v) => v,
            KeyColumn::Slots(slots, n) => KeyValues {
                nulls: slots.iter().map(|&s| s as usize == n).collect(),
                values: slots.into_iter().map(i64::from).collect(),
            },
        };
        let groups_so_far = levels.last().map_or(1, |(parents, _)| parents.len());
        let (mut parents, mut level) = (Vec::new(), KeyValues::default());
        let mut new_group = |gid: u32, value: i64, null: bool| {
            parents.push(gid);
            level.values.push(value);
            level.nulls.push(null);
            (parents.len() - 1) as u32
        };
        match dense_range(&column, groups_so_far) {
            // Entry of (group, value): group * width + value - min, the last of each group's row the null.
            Some((min, span)) => {
                let mut id = vec![u32::MAX; groups_so_far * span];
                for (i, gid) in gids.iter_mut().enumerate() {
                    let (value, null) = (column.values[i], column.nulls[i]);
                    let entry = *gid as usize * span + if null { span - 1 } else { (value - min) as usize };
                    if id[entry] == u32::MAX {
                        id[entry] = new_group(*gid, value, null);
                    }
                    *gid = id[entry];
                }
            }
            None => {
                let mut id = rustc_hash::FxHashMap::<u128, u32>::default();
                for (i, gid) in gids.iter_mut().enumerate() {
                    let (value, null) = (column.values[i], column.nulls[i]);
                    let entry = u128::from(*gid) << 65 | u128::from(null) << 64 | u128::from(if null { 0 } else { value as u64 });
                    *gid = *id.entry(entry).or_insert_with(|| new_group(*gid, value, null));
                }
            }
        }
        levels.push((parents, level));
    }
    let count = levels.last().map_or(1, |(parents, _)| parents.len());
    // Each final group's value of every key, from the last key back to the first.
    let mut keys_out = vec![KeyValues::default(); width];
    let mut at: Vec<u32> = (0..count as u32).collect();
    for (k, (parents, level)) in levels.iter().enumerate().rev() {
        keys_out[k].values = at.iter().map(|&g| level.values[g as usize]).collect();
        keys_out[k].nulls = at.iter().map(|&g| level.nulls[g as usize]).collect();
        at.iter_mut().for_each(|g| *g = parents[*g as usize]);
    }
    Groups { gids, count, codes: vec![], keys: keys_out }
}

/// The smallest non-null value of `column` and the span of a group's table entries (its values'
/// range and the null) when `groups` such tables fit [`DENSE_CODES`]; `None` otherwise.
fn dense_range(column: &KeyValues, groups: usize) -> Option<(i64, usize)> {
    let mut valid = column.values.iter().zip(&column.nulls).filter(|(_, null)| !**null).map(|(v, _)| *v);
    let first = valid.next().unwrap_or(0);
    let (min, max) = valid.fold((first, first), |(lo, hi), v| (lo.min(v), hi.max(v)));
    let span = u64::try_from(i128::from(max) - i128::from(min) + 2).ok()?;
    (span.checked_mul(groups as u64)? <= DENSE_CODES).then_some((min, span as usize))
}
