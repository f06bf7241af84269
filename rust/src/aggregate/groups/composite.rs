//! Grouping by several dictionaries: each row's composite code (its slots in mixed radix), the
//! groups numbered in first-seen order through a table or, for many codes, a hash map.

use super::DENSE_CODES;
use super::Groups;

/// The groups of `rows` selected rows whose slot in key `k` is `slots[k][i]`, key `k` having
/// `radix[k]` slots (its entries and the null); `None` when the composite codes would not fit 64
/// bits.
pub(super) fn groups(slots: &[Vec<u32>], radix: &[u64], rows: usize) -> Option<Groups> {
    let product = radix.iter().try_fold(1u64, |p, &r| p.checked_mul(r))?;
    let composite = |i: usize| slots.iter().zip(radix).rev().fold(0u64, |c, (s, &r)| c * r + u64::from(s[i]));
    let mut codes = Vec::new();
    let mut gids = Vec::with_capacity(rows);
    if product <= DENSE_CODES {
        let mut id = vec![u32::MAX; product as usize];
        for i in 0..rows {
            let c = composite(i);
            let g = &mut id[c as usize];
            if *g == u32::MAX {
                *g = codes.len() as u32;
                codes.push(c);
            }
            gids.push(*g);
        }
    } else {
        let mut id = rustc_hash::FxHashMap::<u64, u32>::default();
        for i in 0..rows {
            let c = composite(i);
            let g = *id.entry(c).or_insert_with(|| {
                codes.push(c);
                (codes.len() - 1) as u32
            });
            gids.push(g);
        }
    }
    Some(Groups { gids, count: codes.len(), codes, keys: vec![] })
}
