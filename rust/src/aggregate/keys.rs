//! Group keys read for the selected rows: a dictionary of strings as slots (its codes, nulls
//! in one slot past the entries), an integer or date column as values.

use vortex_array::ArrayRef;
use vortex_array::ExecutionCtx;
use vortex_array::arrays::ExtensionArray;
use vortex_array::arrays::PrimitiveArray;
use vortex_array::arrays::extension::ExtensionArrayExt;
use vortex_array::dtype::DType;
use vortex_array::dtype::PType;
use vortex_array::match_each_integer_ptype;
use vortex_error::VortexResult;

use super::columns::Decoded;
use super::columns::Decodings;
use super::columns::valid_bits;
use crate::filter::bits::bit;
use crate::filter::dict::string_dictionary;

/// One group column's value per group, when a chunk is grouped by dictionary and integer keys
/// ([`super::groups`]): a dictionary slot or an integer (a date's days since the epoch), and whether the
/// key is null (its value then meaningless).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct KeyValues {
    pub values: Vec<i64>,
    pub nulls: Vec<bool>,
}

/// The slot of each selected row in the dictionary of strings `key`: its code, or the
/// dictionary's length for a null code or a null entry; and that length. `None` when `key` is not
/// a dictionary of strings.
pub(super) fn key_slots(key: &ArrayRef, rows: &[u32], len: usize, ctx: &mut ExecutionCtx) -> VortexResult<Option<(Vec<u32>, usize)>> {
    let Some((codes, values)) = string_dictionary(key) else {
        return Ok(None);
    };
    let null_slot = values.len() as u32;
    // Each code's slot, decided once: a null dictionary entry is the null slot.
    let entries_valid = valid_bits(&values, ctx)?;
    let slot_of: Vec<u32> = (0..null_slot)
        .map(|c| if entries_valid.as_ref().is_some_and(|w| !bit(w, c as usize)) { null_slot } else { c })
        .collect();
    let codes = Decoded::new(&codes, rows, len, ctx)?;
    let slots = match_each_integer_ptype!(codes.values.ptype(), |P| {
        let c = codes.values.as_slice::<P>();
        rows.iter()
            .enumerate()
            .map(|(i, &r)| {
                let at = codes.at(i, r);
                // A code outside the dictionary (corrupt data) counts as null.
                if codes.is_valid(at) { slot_of.get(c[at] as usize).copied().unwrap_or(null_slot) } else { null_slot }
            })
            .collect()
    });
    Ok(Some((slots, values.len())))
}

/// Rows per slot of the dictionary of strings `key` over all `len` rows of a chunk (slots as
/// [`key_slots`] gives them), counted in one pass over the codes; and the dictionary's length.
/// `None` when `key` is not a dictionary of strings.
pub(super) fn key_counts(key: &ArrayRef, len: usize, ctx: &mut ExecutionCtx) -> VortexResult<Option<(Vec<i64>, usize)>> {
    let Some((codes, values)) = string_dictionary(key) else {
        return Ok(None);
    };
    let n = values.len();
    let codes_valid = valid_bits(&codes, ctx)?;
    let codes = codes.execute::<PrimitiveArray>(ctx)?;
    // Slot n: null codes, null entries and (corrupt data) codes outside the dictionary.
    let mut per_slot = vec![0i64; n + 1];
    match_each_integer_ptype!(codes.ptype(), |P| {
        let c = &codes.as_slice::<P>()[..len];
        match &codes_valid {
            None => c.iter().for_each(|&x| per_slot[(x as usize).min(n)] += 1),
            Some(w) => c.iter().enumerate().for_each(|(r, &x)| {
                per_slot[if bit(w, r) { (x as usize).min(n) } else { n }] += 1;
            }),
        }
    });
    if let Some(w) = valid_bits(&values, ctx)? {
        for c in (0..n).filter(|&c| !bit(&w, c)) {
            per_slot[n] += std::mem::take(&mut per_slot[c]);
        }
    }
    Ok(Some((per_slot, n)))
}

/// One group column for the selected rows: dictionary slots (and the dictionary's length, the
/// null slot) or integer values.
pub(super) enum KeyColumn {
    Slots(Vec<u32>, usize),
    Values(KeyValues),
}

/// The integer value of each selected row in `key` (a date: its days) and whether it is null;
/// `None` unless `key` is an integer column fitting i64 or a date stored as 32-bit days.
pub(super) fn int_keys(key: &ArrayRef, rows: &[u32], decodings: &mut Decodings<'_>, ctx: &mut ExecutionCtx) -> VortexResult<Option<KeyValues>> {
    let storage = match key.dtype() {
        DType::Primitive(p, _) if p.is_int() && *p != PType::U64 => key.clone(),
        DType::Extension(ext) if ext.id().as_str() == "vortex.date" && matches!(ext.storage_dtype(), DType::Primitive(PType::I32, _)) => {
            key.clone().execute::<ExtensionArray>(ctx)?.storage_array().clone()
        }
        _ => return Ok(None),
    };
    let d = decodings.get(&storage, ctx)?;
    let nulls = rows.iter().enumerate().map(|(i, &r)| !d.is_valid(d.at(i, r))).collect();
    let values = match_each_integer_ptype!(d.values.ptype(), |P| {
        let v = d.values.as_slice::<P>();
        rows.iter().enumerate().map(|(i, &r)| v[d.at(i, r)] as i64).collect()
    });
    Ok(Some(KeyValues { values, nulls }))
}
