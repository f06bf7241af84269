//! A filter prepared once per scan: the predicate's leaves decoded, normalized and resolved
//! against the scanned columns they name, so that per chunk only the evaluation is left, and a
//! count or an aggregate of the selected rows is computed in the same call: no bitmap crosses JNI.
//!
//! Java sends the filter in negation normal form as a shape (prefix order: `AND n`, `OR n`, `LEAF
//! k`) over a list of leaves, each its wire encoding (`docs/predicate-encoding.md`) and the scan
//! column it tests. A leaf without an encoding is one Java evaluates (a `Predicate.Computed`, a
//! literal the encoding cannot carry): its selection comes with each chunk.

use crate::aggregate::Aggregated;
use crate::error::Error;
use crate::error::Result;
use crate::filter::LeafPath;
use crate::predicate::Predicate;
use crate::predicate::resolve::Resolved;
use crate::predicate::resolve::resolve;
use crate::scan::chunk::Chunk;
use vortex_array::dtype::DType;

/// Shape tags (Java's `PreparedFilter`).
const AND: i32 = 0;
const OR: i32 = 1;
const LEAF: i32 = 2;

/// The shape tags by the names Java gives them (docs/jni.md).
pub(crate) const TREE_TAGS: [(&str, i32); 3] = [("AND", AND), ("OR", OR), ("LEAF", LEAF)];

/// Nesting deeper than this is rejected rather than risking the native stack.
const MAX_DEPTH: usize = 256;

/// A leaf as Java sends it: its encoding (`None`: Java evaluates it) and its scan column.
#[derive(Clone)]
pub struct LeafSpec {
    pub encoded: Option<Vec<u8>>,
    pub column: usize,
}

/// The filter, ready to evaluate on every chunk of one scan.
#[derive(Debug)]
pub struct PreparedFilter {
    root: Node,
    /// How many leaves Java sent (the length of the per-chunk external selections).
    leaves: usize,
    /// Whether Java evaluates one of them.
    external: bool,
}

#[derive(Debug)]
enum Node {
    And(Vec<Node>),
    Or(Vec<Node>),
    Native(NativeLeaf),
    /// Leaf `k`, evaluated by Java: its selection is external selection `k` of each chunk.
    External(usize),
}

#[derive(Debug)]
struct NativeLeaf {
    /// Its index among the leaves Java sent.
    index: usize,
    column: usize,
    /// Normalized (no NOT).
    predicate: Predicate,
    /// Its encoding: the key of its code tables in the dictionary cache.
    key: Vec<u8>,
    /// Against the column's dtype; `None` where it cannot be (then only the dictionary kernel,
    /// which resolves against the dictionary's values, may take it).
    resolved: Option<Resolved>,
}

impl PreparedFilter {
    /// Prepares `shape` over `leaves` for a scan whose columns are `names` of `dtypes`.
    pub fn new(names: &[String], dtypes: &[DType], shape: &[i32], leaves: Vec<LeafSpec>) -> Result<Self> {
        let mut prepared: Vec<Option<Node>> = Vec::with_capacity(leaves.len());
        for (k, spec) in leaves.iter().enumerate() {
            let Some(encoded) = &spec.encoded else {
                prepared.push(Some(Node::External(k)));
                continue;
            };
            let (Some(name), Some(dtype)) = (names.get(spec.column), dtypes.get(spec.column)) else {
                return Err(Error::Invalid(format!("leaf {k} names column {} of a scan of {}", spec.column, names.len())));
            };
            let predicate = Predicate::decode(encoded)?.normalize();
            match predicate.column() {
                Some(c) if c == name => {}
                Some(c) => return Err(Error::Invalid(format!("predicate on column '{c}' sent for column '{name}'"))),
                None => return Err(Error::Invalid(format!("leaf {k} is not a leaf: {predicate:?}"))),
            }
            // Re-encoded after normalizing: the dictionary cache key of `Chunk::filter` too.
            let key = predicate.encode();
            let resolved = resolve(&predicate, dtype).ok();
            prepared.push(Some(Node::Native(NativeLeaf { index: k, column: spec.column, predicate, key, resolved })));
        }
        let mut pos = 0;
        let root = parse(shape, &mut pos, &mut prepared, 0)?;
        if pos != shape.len() {
            return Err(Error::Invalid(format!("{} trailing ints after the filter shape", shape.len() - pos)));
        }
        let external = leaves.iter().any(|l| l.encoded.is_none());
        Ok(PreparedFilter { root, leaves: leaves.len(), external })
    }

    /// Prepares `predicate`, every leaf native, for a scan whose columns are `names` of `dtypes`:
    /// the shape and leaves Java would send for it, built here (the native engine's scans).
    pub fn of(names: &[String], dtypes: &[DType], predicate: &Predicate) -> Result<Self> {
        fn flatten(p: &Predicate, names: &[String], shape: &mut Vec<i32>, leaves: &mut Vec<LeafSpec>) -> Result<()> {
            let children = match p {
                Predicate::And(c) => Some((AND, c)),
                Predicate::Or(c) => Some((OR, c)),
                _ => None,
            };
            if let Some((tag, children)) = children {
                shape.extend([tag, children.len() as i32]);
                return children.iter().try_for_each(|c| flatten(c, names, shape, leaves));
            }
            let name = p.column().ok_or_else(|| Error::Invalid(format!("not a leaf: {p:?}")))?;
            let column = names
                .iter()
                .position(|n| n == name)
                .ok_or_else(|| Error::Invalid(format!("filter on column '{name}', which the scan does not read")))?;
            shape.extend([LEAF, leaves.len() as i32]);
            leaves.push(LeafSpec { encoded: Some(p.encode()), column });
            Ok(())
        }
        let (mut shape, mut leaves) = (Vec::new(), Vec::new());
        flatten(&predicate.clone().normalize(), names, &mut shape, &mut leaves)?;
        Self::new(names, dtypes, &shape, leaves)
    }

    /// How many leaves Java sent.
    pub fn leaves(&self) -> usize {
        self.leaves
    }

    /// Whether Java evaluates a leaf (then every chunk needs its selection from Java).
    pub fn has_external_leaves(&self) -> bool {
        self.external
    }

    /// The rows of `chunk` the filter selects, `external[k]` the selection of leaf `k` where Java
    /// evaluates it; `None` when a leaf cannot be evaluated natively on this chunk (the caller
    /// evaluates the filter its own way).
    pub fn selection(&self, chunk: &Chunk, external: &[Option<Vec<u64>>]) -> Result<Option<Vec<u64>>> {
        self.selection_by_paths(chunk, external, &mut vec![LeafPath::NotEvaluated; self.leaves])
    }

    /// [`PreparedFilter::selection`], writing to `paths[k]` the kernel that computed leaf `k`'s
    /// selection (left as it is for a leaf not reached).
    pub fn selection_by_paths(&self, chunk: &Chunk, external: &[Option<Vec<u64>>], paths: &mut [LeafPath]) -> Result<Option<Vec<u64>>> {
        if external.len() != self.leaves || paths.len() != self.leaves {
            return Err(Error::Invalid(format!(
                "{} external selections and {} paths for {} leaves",
                external.len(),
                paths.len(),
                self.leaves
            )));
        }
        eval(&self.root, chunk, external, paths)
    }

    /// How many rows of `chunk` the filter selects (see [`PreparedFilter::selection`]).
    pub fn count(&self, chunk: &Chunk, external: &[Option<Vec<u64>>]) -> Result<Option<u64>> {
        Ok(self.selection(chunk, external)?.map(|w| w.iter().map(|x| x.count_ones() as u64).sum()))
    }

    /// [`Chunk::aggregate`] of the rows the filter selects: `Aggregated` (groups, partials),
    /// `Selected` (the selection, when the aggregate kernel does not take the chunk) or
    /// `Declined` (when the selection could not be computed natively).
    pub fn aggregate(
        &self,
        chunk: &Chunk,
        external: &[Option<Vec<u64>>],
        keys: &[usize],
        aggs: &[(i32, i32, f64)],
    ) -> Result<Filtered> {
        let Some(selection) = self.selection(chunk, external)? else {
            return Ok(Filtered::Declined);
        };
        Ok(match chunk.aggregate(keys, Some(&selection), aggs)? {
            Some(aggregated) => Filtered::Aggregated(aggregated),
            None => Filtered::Selected(selection),
        })
    }
}

/// What [`PreparedFilter::aggregate`] made of a chunk.
pub enum Filtered {
    Aggregated(Aggregated),
    Selected(Vec<u64>),
    Declined,
}

fn parse(shape: &[i32], pos: &mut usize, leaves: &mut [Option<Node>], depth: usize) -> Result<Node> {
    if depth > MAX_DEPTH {
        return Err(Error::Invalid("filter shape nested too deeply".into()));
    }
    let truncated = || Error::Invalid("filter shape truncated".into());
    let (&tag, &arg) = (shape.get(*pos).ok_or_else(truncated)?, shape.get(*pos + 1).ok_or_else(truncated)?);
    *pos += 2;
    match tag {
        AND | OR => {
            // Every child takes two ints, so a larger count is corrupt.
            let n = usize::try_from(arg).ok().filter(|&n| n <= (shape.len() - *pos) / 2);
            let n = n.ok_or_else(|| Error::Invalid(format!("filter shape: bad child count {arg}")))?;
            let children = (0..n).map(|_| parse(shape, pos, leaves, depth + 1)).collect::<Result<Vec<_>>>()?;
            Ok(if tag == AND { Node::And(children) } else { Node::Or(children) })
        }
        LEAF => usize::try_from(arg)
            .ok()
            .and_then(|k| leaves.get_mut(k))
            .and_then(Option::take)
            .ok_or_else(|| Error::Invalid(format!("filter shape: leaf {arg} missing or used twice"))),
        _ => Err(Error::Invalid(format!("filter shape: unknown tag {tag}"))),
    }
}

fn eval(node: &Node, chunk: &Chunk, external: &[Option<Vec<u64>>], paths: &mut [LeafPath]) -> Result<Option<Vec<u64>>> {
    let words = chunk.len().div_ceil(64);
    Ok(Some(match node {
        Node::And(children) => {
            let mut acc = crate::filter::bits::ones(chunk.len());
            for c in children {
                let Some(w) = eval(c, chunk, external, paths)? else {
                    return Ok(None);
                };
                acc.iter_mut().zip(w).for_each(|(a, b)| *a &= b);
                if acc.iter().all(|&a| a == 0) {
                    break;
                }
            }
            acc
        }
        Node::Or(children) => {
            let mut acc = vec![0u64; words];
            for c in children {
                let Some(w) = eval(c, chunk, external, paths)? else {
                    return Ok(None);
                };
                acc.iter_mut().zip(w).for_each(|(a, b)| *a |= b);
            }
            acc
        }
        Node::Native(l) => match chunk.filter_leaf(l.column, &l.predicate, &l.key, l.resolved.as_ref())? {
            Some((w, path)) => {
                paths[l.index] = path;
                w
            }
            None => {
                paths[l.index] = LeafPath::Declined;
                return Ok(None);
            }
        },
        Node::External(k) => match &external[*k] {
            Some(w) if w.len() == words => {
                paths[*k] = LeafPath::Java;
                w.clone()
            }
            Some(w) => return Err(Error::Invalid(format!("an external selection of {} words for {} rows", w.len(), chunk.len()))),
            None => return Err(Error::Invalid(format!("no selection for leaf {k}, which Java evaluates"))),
        },
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::predicate::CmpOp;
    use crate::predicate::Literal;

    /// The shape and leaves of a normalized predicate; leaves for which `external` holds are
    /// sent without an encoding (Java's job).
    fn flatten(p: &Predicate, names: &[String], external: &dyn Fn(&Predicate) -> bool, shape: &mut Vec<i32>, leaves: &mut Vec<LeafSpec>) {
        match p {
            Predicate::And(c) | Predicate::Or(c) => {
                shape.extend([if matches!(p, Predicate::And(_)) { AND } else { OR }, c.len() as i32]);
                c.iter().for_each(|c| flatten(c, names, external, shape, leaves));
            }
            leaf => {
                let column = names.iter().position(|n| Some(n.as_str()) == leaf.column()).unwrap();
                shape.extend([LEAF, leaves.len() as i32]);
                leaves.push(LeafSpec { encoded: (!external(leaf)).then(|| leaf.encode()), column });
            }
        }
    }

    fn eq(column: &str, value: Literal) -> Predicate {
        Predicate::Compare { column: column.into(), op: CmpOp::Eq, value }
    }

    /// Counts and aggregates of every chunk through a prepared filter add up to what vortex's own
    /// filtered scan selects; a leaf given as an external selection (computed here from the
    /// generated values) gives the same answer as the native leaf.
    #[test]
    fn prepared_counts_equal_vortex_filtered_scan() {
        let path = std::env::temp_dir().join(format!("vortex4j-prepared-{}.vortex", std::process::id()));
        let path = path.to_str().unwrap();
        let strings = crate::fixture::write_dict_fixture(path, 6, 3000, 11, false).unwrap();
        let file = crate::io::file::open(path).unwrap();
        let names: Vec<String> = ["id", "s", "v"].map(String::from).to_vec();
        let common = strings[0].clone().unwrap();
        let filters = vec![
            eq("s", Literal::Utf8(common.clone())),
            Predicate::Not(Box::new(eq("s", Literal::Utf8(common.clone())))),
            Predicate::Or(vec![
                Predicate::Compare { column: "v".into(), op: CmpOp::Gt, value: Literal::I64(100) },
                Predicate::IsNull { column: "s".into(), negated: false },
            ]),
            Predicate::And(vec![
                eq("s", Literal::Utf8(common.clone())),
                Predicate::Between { column: "v".into(), low: Literal::I64(-200), high: Literal::F64(250.5) },
            ]),
            Predicate::And(vec![]),
            Predicate::Or(vec![]),
        ];
        let is_common = |p: &Predicate| *p == eq("s", Literal::Utf8(common.clone()));
        let mut by_dictionary = 0;
        for filter in filters {
            let expected = if filter == Predicate::And(vec![]) {
                file.row_count()
            } else if filter == Predicate::Or(vec![]) {
                0
            } else {
                crate::scan::filtered_rows(&file, &filter).unwrap().len() as u64
            };
            let normalized = filter.clone().normalize();
            for as_external in [false, true] {
                let (mut shape, mut leaves) = (vec![], vec![]);
                let external = |p: &Predicate| as_external && is_common(p);
                flatten(&normalized, &names, &external, &mut shape, &mut leaves);
                let externals: Vec<bool> = leaves.iter().map(|l| l.encoded.is_none()).collect();
                let mut scan = crate::scan::Scan::open(&file, &names, None).unwrap();
                let (mut counted, mut aggregated) = (0, 0);
                let mut prepared = None;
                while let Some(columns) = scan.next_chunk().unwrap() {
                    let first = columns.first_row as usize;
                    let chunk = Chunk::new(columns);
                    let dtypes: Vec<DType> = chunk.data.columns.iter().map(|c| c.dtype().clone()).collect();
                    let f = prepared.get_or_insert_with(|| {
                        let leaves = std::mem::take(&mut leaves);
                        PreparedFilter::new(&names, &dtypes, &shape, leaves).unwrap()
                    });
                    // The external leaf's selection, from the generated strings.
                    let mut words = vec![0u64; chunk.len().div_ceil(64)];
                    for r in 0..chunk.len() {
                        if strings[first + r].as_deref() == Some(common.as_str()) {
                            words[r / 64] |= 1 << (r % 64);
                        }
                    }
                    let ext: Vec<Option<Vec<u64>>> = externals.iter().map(|&e| e.then(|| words.clone())).collect();
                    counted += f.count(&chunk, &ext).unwrap().unwrap();
                    // Each leaf reports its kernel: Java's where Java evaluated it, a native one
                    // otherwise (or none, where an AND stopped before it).
                    let mut paths = vec![LeafPath::NotEvaluated; externals.len()];
                    f.selection_by_paths(&chunk, &ext, &mut paths).unwrap().unwrap();
                    for (k, (&e, &path)) in externals.iter().zip(&paths).enumerate() {
                        let native = !matches!(path, LeafPath::Java | LeafPath::Declined);
                        assert!(path == LeafPath::NotEvaluated || (e == (path == LeafPath::Java) && (e || native)), "{filter:?}: leaf {k} took {path:?}");
                        by_dictionary += usize::from(path == LeafPath::Dictionary);
                    }
                    // COUNT(*) grouped by s: the groups' rows add up to the count.
                    match f.aggregate(&chunk, &ext, &[1], &[(0, -1, 0.0)]).unwrap() {
                        Filtered::Aggregated(a) => aggregated += a.partials[1].count.iter().sum::<i64>() as u64,
                        _ => panic!("a dictionary key is aggregated natively"),
                    }
                }
                assert_eq!(counted, expected, "{filter:?} (external: {as_external})");
                assert_eq!(aggregated, expected, "{filter:?} (external: {as_external})");
            }
        }
        assert!(by_dictionary > 0, "the dictionary kernel answered no leaf");
        let _ = std::fs::remove_file(path);
    }

    #[test]
    fn malformed_shapes_are_errors() {
        let names = vec!["a".to_string()];
        let dtypes = vec![DType::Primitive(vortex_array::dtype::PType::I64, vortex_array::dtype::Nullability::NonNullable)];
        let leaf = || vec![LeafSpec { encoded: Some(eq("a", Literal::I64(1)).encode()), column: 0 }];
        for shape in [vec![], vec![LEAF], vec![LEAF, 1], vec![AND, 2, LEAF, 0], vec![AND, 1, LEAF, 0, LEAF, 0], vec![7, 0]] {
            assert!(PreparedFilter::new(&names, &dtypes, &shape, leaf()).is_err(), "{shape:?}");
        }
        let wrong_column = vec![LeafSpec { encoded: Some(eq("b", Literal::I64(1)).encode()), column: 0 }];
        assert!(PreparedFilter::new(&names, &dtypes, &[LEAF, 0], wrong_column).is_err());
        assert!(PreparedFilter::new(&names, &dtypes, &[LEAF, 0], vec![LeafSpec { encoded: None, column: 9 }]).is_ok());
    }
}
