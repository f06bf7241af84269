//! Independent reference evaluations shared by the integration tests.

/// SQL LIKE, straight from the definition: `None` for a pattern SQL rejects.
pub fn oracle(pattern: &str, escape: Option<char>, case_insensitive: bool, value: &str) -> Option<bool> {
    #[derive(Clone, Copy, PartialEq)]
    enum T {
        Lit(char),
        One,
        Any,
    }
    let mut p = Vec::new();
    let mut it = pattern.chars();
    while let Some(c) = it.next() {
        if Some(c) == escape {
            let n = it.next()?;
            if n != '%' && n != '_' && Some(n) != escape {
                return None;
            }
            p.push(T::Lit(n));
        } else {
            p.push(match c {
                '%' => T::Any,
                '_' => T::One,
                c => T::Lit(c),
            });
        }
    }
    let fold = |c: char| if case_insensitive { c.to_ascii_lowercase() } else { c };
    let v: Vec<char> = value.chars().collect();
    // matches[i][j]: pattern p[i..] matches v[j..].
    let mut m = vec![vec![false; v.len() + 1]; p.len() + 1];
    m[p.len()][v.len()] = true;
    for i in (0..p.len()).rev() {
        for j in (0..=v.len()).rev() {
            m[i][j] = match p[i] {
                T::Any => m[i + 1][j] || (j < v.len() && m[i][j + 1]),
                T::One => j < v.len() && m[i + 1][j + 1],
                T::Lit(c) => j < v.len() && fold(v[j]) == fold(c) && m[i + 1][j + 1],
            };
        }
    }
    Some(m[0][0])
}
