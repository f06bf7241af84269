//! Our scan as a DataFusion leaf: a table's splits read in DataFusion's partitions, the filters
//! DataFusion pushed evaluated by the prepared filter (dictionary kernel, per-entry tables) and
//! zone maps, the selected rows handed up as Arrow batches.
//!
//! Filters DataFusion's operators raise while running (dynamic filters, `dynamic.rs`) reach the
//! scan after optimization and drop rows on the reading thread; their owners still apply them
//! (`PushedDown::No`).
//!
//! A partition's splits are read a chunk at a time (our scans drive vortex on the calling
//! thread, as the JNI scans do), as the query chose ([`Reading`]): on the DataFusion thread that
//! polls the partition's stream, or ahead on a blocking thread whose batches reach the stream
//! through a small channel. Either way reading stops soon after the query stops consuming (a
//! cancelled or finished query drops the stream; the channel closes and the thread ends after
//! its chunk).

use std::fmt;
use std::ops::Range;
use std::sync::Arc;

use arrow::array::ArrayRef;
use arrow::array::RecordBatch;
use arrow::array::RecordBatchOptions;
use arrow::array::new_null_array;
use arrow::datatypes::DataType;
use arrow::datatypes::Field;
use arrow::datatypes::Schema;
use arrow::datatypes::SchemaRef;
use datafusion::common::Result as DfResult;
use datafusion::common::Statistics;
use datafusion::common::stats::Precision;
use datafusion::common::tree_node::TreeNodeRecursion;
use datafusion::config::ConfigOptions;
use datafusion::error::DataFusionError;
use datafusion::execution::SendableRecordBatchStream;
use datafusion::execution::TaskContext;
use datafusion::physical_expr::EquivalenceProperties;
use datafusion::physical_expr::PhysicalExpr;
use datafusion::physical_plan::DisplayAs;
use datafusion::physical_plan::DisplayFormatType;
use datafusion::physical_plan::ExecutionPlan;
use datafusion::physical_plan::Partitioning;
use datafusion::physical_plan::PlanProperties;
use datafusion::physical_plan::ReplaceChildrenOptions;
use datafusion::physical_plan::execution_plan::Boundedness;
use datafusion::physical_plan::execution_plan::EmissionType;
use datafusion::physical_plan::filter_pushdown::ChildPushdownResult;
use datafusion::physical_plan::filter_pushdown::FilterPushdownPhase;
use datafusion::physical_plan::filter_pushdown::FilterPushdownPropagation;
use datafusion::physical_plan::filter_pushdown::PushedDown;
use datafusion::physical_plan::metrics::Count;
use datafusion::physical_plan::metrics::ExecutionPlanMetricsSet;
use datafusion::physical_plan::metrics::MetricBuilder;
use datafusion::physical_plan::metrics::MetricsSet;
use datafusion::physical_plan::statistics::StatisticsArgs;
use datafusion::physical_plan::stream::RecordBatchStreamAdapter;
use futures::StreamExt;
use tokio::sync::mpsc::Receiver;

use super::dynamic::DynamicFilters;
use super::types::converted;
use super::types::to_engine;
use crate::convert::export::PartitionType;
use crate::convert::export::repeated;
use crate::convert::ffi::arrow_column;
use crate::convert::ffi::arrow_dictionary;
use crate::convert::ffi::arrow_column_as;
use crate::error::Error;
use crate::error::Result;
use crate::io::file::open;
use crate::predicate::Predicate;
use crate::predicate::prepared::PreparedFilter;
use crate::scan::Scan;
use crate::scan::chunk::Chunk;

/// Rows of one file: a dataset split, with the size and modification time its file had when
/// Java planned it (`None`: not checked), and its Hive partition values (`None`: the default
/// partition, null), one per partition column of its table.
#[derive(Debug, Clone)]
pub struct Split {
    pub path: String,
    pub rows: Range<u64>,
    pub planned: Option<(u64, i64)>,
    pub partition: Vec<Option<String>>,
}

/// A Hive partition column of a table: its name and type.
pub type PartitionColumn = (String, PartitionType);

/// Where an output column's values come from.
#[derive(Debug, Clone, Copy)]
enum Source {
    /// The file column at this index of [`ScanWork::columns`], read as its engine type.
    File(usize),
    /// The file column at this index, decoded as stored, then converted ([`to_engine`]).
    Converted(usize),
    /// The partition column at this index of the table's partition columns: one value per split.
    Partition(usize),
}

/// What every partition of a scan reads.
#[derive(Debug, Clone)]
struct ScanWork {
    /// The file columns read: the output ones, then those only the filter needs (at least one,
    /// for the row counts).
    columns: Vec<String>,
    schema: SchemaRef,
    /// Per output column (of `schema`), where its values come from.
    sources: Vec<Source>,
    partition_columns: Arc<[PartitionColumn]>,
    /// The pushed filter (every leaf native) and its encoding (the zone-map results' key).
    filter: Option<(Predicate, Vec<u8>)>,
    /// Stop a partition after this many rows (only without a filter).
    limit: Option<usize>,
    /// Per output column, whether it is handed up as Int32 dictionary codes ([`VortexScanExec::with_compact_reads`]).
    codes: Vec<bool>,
}

/// The scan of a table's splits.
#[derive(Debug, Clone)]
pub struct VortexScanExec {
    table: String,
    work: Arc<ScanWork>,
    splits: Arc<[Split]>,
    /// Per partition, the indexes of its splits.
    partitions: Vec<Vec<usize>>,
    properties: Arc<PlanProperties>,
    /// Filters pushed by the operators above after optimization, over the output columns.
    dynamic: Vec<Arc<dyn PhysicalExpr>>,
    /// The rows handed up, per partition (EXPLAIN ANALYZE).
    metrics: ExecutionPlanMetricsSet,
    reading: Reading,
}

/// Where a query's scans read: on the DataFusion thread that asks a partition for its next batch
/// (`Inline`), or each partition on a reading thread of its own that reads ahead (`Ahead`). The
/// query chooses (`Query`'s plan) and tells its tables through the session's configuration.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reading {
    Inline,
    Ahead,
}

impl VortexScanExec {
    /// The scan of `splits` (of table `table`) in up to `partitions` partitions read as
    /// `reading` says, output columns
    /// `columns` of `schema` (the projected schema; the table's `partition_columns` among them
    /// come from the splits' values), rows kept by `filter` (every leaf native, over file
    /// columns; its other columns are read too). `stored` is the files' schema as vortex decodes
    /// it; its first column is read for the row counts when no other file column is.
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        table: &str,
        splits: Arc<[Split]>,
        schema: SchemaRef,
        stored: &Schema,
        filter: Option<Predicate>,
        limit: Option<usize>,
        partitions: usize,
        reading: Reading,
        partition_columns: Arc<[PartitionColumn]>,
    ) -> Self {
        let mut columns: Vec<String> = Vec::new();
        let sources = schema
            .fields()
            .iter()
            .map(|f| match partition_columns.iter().position(|(n, _)| n == f.name()) {
                Some(k) => Source::Partition(k),
                None => {
                    columns.push(f.name().clone());
                    match stored.field_with_name(f.name()) {
                        Ok(s) if converted(s) => Source::Converted(columns.len() - 1),
                        _ => Source::File(columns.len() - 1),
                    }
                }
            })
            .collect();
        if let Some(f) = &filter {
            leaf_columns(f, &mut columns);
        }
        if columns.is_empty() {
            columns.push(stored.field(0).name().clone());
        }
        let n = partitions.clamp(1, splits.len().max(1));
        let mut groups = vec![Vec::new(); n];
        for i in 0..splits.len() {
            groups[i % n].push(i);
        }
        let properties = PlanProperties::new(
            EquivalenceProperties::new(schema.clone()),
            Partitioning::UnknownPartitioning(n),
            EmissionType::Incremental,
            Boundedness::Bounded,
        );
        let filter = filter.map(|f| {
            let encoded = f.encode();
            (f, encoded)
        });
        let limit = if filter.is_some() { None } else { limit };
        let codes = vec![false; schema.fields().len()];
        VortexScanExec {
            table: table.to_string(),
            work: Arc::new(ScanWork { columns, schema, sources, partition_columns, filter, limit, codes }),
            splits,
            partitions: groups,
            properties: Arc::new(properties),
            dynamic: Vec::new(),
            metrics: ExecutionPlanMetricsSet::new(),
            reading,
        }
    }

    /// This scan with output columns `codes` (strings or binaries read from the files) handed up
    /// as dictionaries of Int32 codes over their type (a dictionary-encoded chunk's entries are
    /// decoded, not its rows), and those of `narrow` that are decimals of at most 18 digits read
    /// from the files as 64-bit decimals. None when a column of `codes` is not such a column, or
    /// operators above pushed filters (over the columns as typed before) into the scan.
    pub(super) fn with_compact_reads(&self, codes: &[usize], narrow: &[usize]) -> Option<Self> {
        if !self.dynamic.is_empty() {
            return None;
        }
        let mut work = (*self.work).clone();
        let mut fields: Vec<Field> = work.schema.fields().iter().map(|f| f.as_ref().clone()).collect();
        for &c in narrow {
            if let (Some(field), Some(Source::File(_))) = (fields.get(c), work.sources.get(c))
                && let DataType::Decimal128(p, s) = *field.data_type()
                && p <= 18
            {
                fields[c] = field.clone().with_data_type(DataType::Decimal64(p, s));
            }
        }
        for &c in codes {
            let field = fields.get(c)?;
            let bytes = matches!(
                field.data_type(),
                DataType::Utf8View | DataType::Utf8 | DataType::LargeUtf8 | DataType::BinaryView | DataType::Binary | DataType::LargeBinary
            );
            if !bytes || !matches!(work.sources[c], Source::File(_)) {
                return None;
            }
            let t = DataType::Dictionary(Box::new(DataType::Int32), Box::new(field.data_type().clone()));
            fields[c] = field.clone().with_data_type(t);
            work.codes[c] = true;
        }
        work.schema = Arc::new(Schema::new_with_metadata(fields, work.schema.metadata().clone()));
        let mut scan = self.clone();
        scan.properties = Arc::new(PlanProperties::new(
            EquivalenceProperties::new(work.schema.clone()),
            self.properties.partitioning.clone(),
            EmissionType::Incremental,
            Boundedness::Bounded,
        ));
        scan.work = Arc::new(work);
        scan.metrics = ExecutionPlanMetricsSet::new();
        Some(scan)
    }

    /// Whether operators above pushed filters into this scan while it was optimized.
    #[cfg(test)]
    pub fn has_dynamic_filters(&self) -> bool {
        !self.dynamic.is_empty()
    }

    /// This scan without the dynamic filters `dropped` says to drop.
    pub(super) fn without_dynamic(&self, dropped: impl Fn(&Arc<dyn PhysicalExpr>) -> bool) -> Self {
        let mut scan = self.clone();
        scan.dynamic.retain(|f| !dropped(f));
        scan
    }

    fn rows(&self, partition: Option<usize>) -> u64 {
        let of = |i: &usize| self.splits[*i].rows.end - self.splits[*i].rows.start;
        match partition {
            Some(p) => self.partitions.get(p).map_or(0, |g| g.iter().map(of).sum()),
            None => self.partitions.iter().flatten().map(of).sum(),
        }
    }
}

/// `rows` copies of `split`'s value of partition column `k` (`column`).
pub(super) fn partition_values(column: &PartitionColumn, split: &Split, k: usize, rows: usize) -> Result<ArrayRef> {
    let (name, t) = column;
    match split.partition.get(k) {
        Some(Some(value)) => repeated(*t, value, rows).map_err(|e| Error::column(name, format!("{}: {e}", split.path))),
        Some(None) => Ok(new_null_array(&t.arrow(), rows)),
        None => Err(Error::file(&split.path, format!("no value of partition column '{name}'"))),
    }
}

/// Column `i` of `chunk`, its selected rows, as `field`'s dictionary type.
fn dictionary_column(chunk: &Chunk, i: usize, selection: Option<&[u64]>, field: &Field) -> Result<ArrayRef> {
    match field.data_type() {
        DataType::Dictionary(_, values) => Ok(Arc::new(arrow_dictionary(chunk, i, selection, values)?)),
        t => Err(Error::column(field.name(), format!("not read as codes: {t}"))),
    }
}

/// Adds the columns of `p`'s leaves missing from `columns`.
fn leaf_columns(p: &Predicate, columns: &mut Vec<String>) {
    match p {
        Predicate::And(c) | Predicate::Or(c) => c.iter().for_each(|c| leaf_columns(c, columns)),
        Predicate::Not(c) => leaf_columns(c, columns),
        leaf => {
            if let Some(c) = leaf.column() {
                if !columns.iter().any(|n| n == c) {
                    columns.push(c.to_string());
                }
            }
        }
    }
}

impl DisplayAs for VortexScanExec {
    fn fmt_as(&self, _t: DisplayFormatType, f: &mut fmt::Formatter) -> fmt::Result {
        let columns: Vec<&str> = self.work.schema.fields().iter().map(|f| f.name().as_str()).collect();
        write!(f, "VortexScan: table={}, splits={}, columns=[{}]", self.table, self.splits.len(), columns.join(", "))?;
        if let Some((filter, _)) = &self.work.filter {
            write!(f, ", filter={}", describe(filter))?;
        }
        if let Some(limit) = self.work.limit {
            write!(f, ", limit={limit}")?;
        }
        let codes: Vec<&str> = columns.iter().zip(&self.work.codes).filter(|(_, c)| **c).map(|(n, _)| *n).collect();
        if !codes.is_empty() {
            write!(f, ", codes=[{}]", codes.join(", "))?;
        }
        for d in &self.dynamic {
            write!(f, ", dynamic filter={d}")?;
        }
        Ok(())
    }
}

/// A predicate in SQL-like text, for EXPLAIN.
fn describe(p: &Predicate) -> String {
    let join = |c: &[Predicate], op: &str| format!("({})", c.iter().map(describe).collect::<Vec<_>>().join(op));
    match p {
        Predicate::And(c) => join(c, " AND "),
        Predicate::Or(c) => join(c, " OR "),
        Predicate::Not(c) => format!("NOT {}", describe(c)),
        Predicate::Compare { column, op, value } => format!("{column} {} {value:?}", op.symbol()),
        Predicate::Between { column, low, high } => format!("{column} BETWEEN {low:?} AND {high:?}"),
        Predicate::In { column, values, negated } => {
            format!("{column} {}IN ({} values)", if *negated { "NOT " } else { "" }, values.len())
        }
        Predicate::IsNull { column, negated } => format!("{column} IS {}NULL", if *negated { "NOT " } else { "" }),
        Predicate::Like { column, pattern, negated, case_insensitive, .. } => format!(
            "{column} {}{} '{pattern}'",
            if *negated { "NOT " } else { "" },
            if *case_insensitive { "ILIKE" } else { "LIKE" }
        ),
        other => format!("{other:?}"),
    }
}

impl ExecutionPlan for VortexScanExec {
    fn name(&self) -> &'static str {
        "VortexScan"
    }

    fn properties(&self) -> &Arc<PlanProperties> {
        &self.properties
    }

    fn children(&self) -> Vec<&Arc<dyn ExecutionPlan>> {
        vec![]
    }

    fn apply_expressions(
        &self,
        f: &mut dyn FnMut(&Arc<dyn PhysicalExpr>) -> DfResult<TreeNodeRecursion>,
    ) -> DfResult<TreeNodeRecursion> {
        for d in &self.dynamic {
            if f(d)? == TreeNodeRecursion::Stop {
                return Ok(TreeNodeRecursion::Stop);
            }
        }
        Ok(TreeNodeRecursion::Continue)
    }

    fn handle_child_pushdown_result(
        &self,
        phase: FilterPushdownPhase,
        result: ChildPushdownResult,
        _config: &ConfigOptions,
    ) -> DfResult<FilterPushdownPropagation<Arc<dyn ExecutionPlan>>> {
        let pushed = FilterPushdownPropagation::with_parent_pushdown_result(vec![PushedDown::No; result.parent_filters.len()]);
        // Before optimization ends the filters are the ones DataFusion already handed the table
        // provider (evaluated by our predicates); afterwards they are the operators' own. A limit
        // counts the rows read, so it takes none (a limit above blocks them anyway).
        if phase != FilterPushdownPhase::Post || result.parent_filters.is_empty() || self.work.limit.is_some() {
            return Ok(pushed);
        }
        let mut scan = self.clone();
        scan.dynamic.extend(result.parent_filters.into_iter().map(|f| f.filter));
        Ok(pushed.with_updated_node(Arc::new(scan)))
    }

    fn replace_children(
        self: Arc<Self>,
        _children: Vec<Arc<dyn ExecutionPlan>>,
        _options: ReplaceChildrenOptions,
    ) -> DfResult<Arc<dyn ExecutionPlan>> {
        Ok(self)
    }

    #[allow(deprecated)]
    fn with_new_children(self: Arc<Self>, _children: Vec<Arc<dyn ExecutionPlan>>) -> DfResult<Arc<dyn ExecutionPlan>> {
        Ok(self)
    }

    fn execute(&self, partition: usize, _context: Arc<TaskContext>) -> DfResult<SendableRecordBatchStream> {
        let group = self
            .partitions
            .get(partition)
            .cloned()
            .ok_or_else(|| DataFusionError::Internal(format!("scan of {}: no partition {partition}", self.table)))?;
        let output_rows = MetricBuilder::new(&self.metrics).output_rows(partition);
        let reader = PartitionReader::new(self.work.clone(), self.splits.clone(), group, &self.dynamic, output_rows);
        let batches = |rx| futures::stream::unfold(rx, |mut rx: Receiver<_>| async move { rx.recv().await.map(|b| (b, rx)) });
        let stream = if self.reading == Reading::Inline {
            futures::stream::iter(reader).boxed()
        } else if self.dynamic.is_empty() {
            // Reading starts at once, ahead of the first poll.
            batches(read_partition(reader)).boxed()
        } else {
            // With dynamic filters, reading starts when the stream is first polled: a hash join
            // polls its probe side once its build side is complete, so the filters above are
            // raised from the first chunk.
            futures::stream::once(async move { batches(read_partition(reader)) }).flatten().boxed()
        };
        Ok(Box::pin(RecordBatchStreamAdapter::new(self.work.schema.clone(), stream)))
    }

    fn metrics(&self) -> Option<MetricsSet> {
        Some(self.metrics.clone_inner())
    }

    fn statistics_from_inputs(&self, _inputs: &[Arc<Statistics>], args: &StatisticsArgs) -> DfResult<Arc<Statistics>> {
        let rows = self.rows(args.partition()) as usize;
        // Exact only when every row comes out (a filter or limit keeps fewer).
        let rows = if self.work.filter.is_none() && self.work.limit.is_none() { Precision::Exact(rows) } else { Precision::Inexact(rows) };
        Ok(Arc::new(Statistics::new_unknown(&self.work.schema).with_num_rows(rows)))
    }
}

/// Reads the splits `group` on a blocking thread, the batches the `dynamic` filters keep sent to
/// the returned channel.
fn read_partition(reader: PartitionReader) -> Receiver<DfResult<RecordBatch>> {
    let (tx, rx) = tokio::sync::mpsc::channel::<DfResult<RecordBatch>>(2);
    tokio::task::spawn_blocking(move || {
        for batch in reader {
            let failed = batch.is_err();
            if tx.blocking_send(batch).is_err() || failed {
                return; // the query stopped reading, or the read failed
            }
        }
    });
    rx
}

/// The batches of a partition's splits, read when asked for, that its `dynamic` filters keep;
/// ends after the first error.
struct PartitionReader {
    work: Arc<ScanWork>,
    splits: Arc<[Split]>,
    group: std::vec::IntoIter<usize>,
    /// The split being read, by its index in `splits`.
    current: Option<(usize, SplitReader)>,
    /// Rows still to read under the scan's limit.
    left: Option<usize>,
    dynamic: DynamicFilters,
    output_rows: Count,
    failed: bool,
}

impl PartitionReader {
    fn new(work: Arc<ScanWork>, splits: Arc<[Split]>, group: Vec<usize>, dynamic: &[Arc<dyn PhysicalExpr>], output_rows: Count) -> Self {
        let left = work.limit;
        PartitionReader { work, splits, group: group.into_iter(), current: None, left, dynamic: DynamicFilters::new(dynamic), output_rows, failed: false }
    }

    fn next_batch(&mut self) -> DfResult<Option<RecordBatch>> {
        let external = |e: Error| DataFusionError::External(Box::new(e));
        loop {
            if self.left == Some(0) {
                return Ok(None);
            }
            let (i, reader) = match &mut self.current {
                Some((i, reader)) => (*i, reader),
                None => match self.group.next() {
                    Some(i) => {
                        let reader = SplitReader::open(&self.work, &self.splits[i]).map_err(external)?;
                        (i, &mut self.current.insert((i, reader)).1)
                    }
                    None => return Ok(None),
                },
            };
            match reader.next_batch(&self.work, &self.splits[i], &mut self.left).map_err(external)? {
                Some(batch) => match self.dynamic.apply(batch)? {
                    Some(batch) => {
                        self.output_rows.add(batch.num_rows());
                        return Ok(Some(batch));
                    }
                    None => continue,
                },
                None => self.current = None,
            }
        }
    }
}

impl Iterator for PartitionReader {
    type Item = DfResult<RecordBatch>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.failed {
            return None;
        }
        match self.next_batch() {
            Ok(batch) => batch.map(Ok),
            Err(e) => {
                self.failed = true;
                Some(Err(e))
            }
        }
    }
}

/// One split's rows, a chunk at a time: the scan of its file and the filter prepared for it.
struct SplitReader {
    scan: Scan,
    filter: Option<PreparedFilter>,
    external: Vec<Option<Vec<u64>>>,
}

impl SplitReader {
    fn open(work: &ScanWork, split: &Split) -> Result<Self> {
        let file = open(&split.path)?;
        if let Some((size, modified)) = split.planned {
            file.check_unchanged(size, modified)?;
        }
        let prune = work.filter.as_ref().map(|(p, e)| (p, e.as_slice()));
        let scan = Scan::open_rows_keyed(&file, &work.columns, prune, split.rows.clone())?;
        let filter = match &work.filter {
            Some((p, _)) => Some(PreparedFilter::of(&work.columns, scan.dtypes(), p)?),
            None => None,
        };
        let external = vec![None; filter.as_ref().map_or(0, |f| f.leaves())];
        Ok(SplitReader { scan, filter, external })
    }

    /// The next chunk's selected rows (at most `left`, which counts them down); None at the end.
    fn next_batch(&mut self, work: &ScanWork, split: &Split, left: &mut Option<usize>) -> Result<Option<RecordBatch>> {
        while let Some(columns) = self.scan.next_chunk()? {
            let chunk = Chunk::new(columns);
            // A chunk the native filter declines passes whole: DataFusion filters above the scan.
            let selection = match &self.filter {
                Some(f) => f.selection(&chunk, &self.external)?,
                None => None,
            };
            let mut rows = match &selection {
                Some(words) => words.iter().map(|w| w.count_ones() as usize).sum(),
                None => chunk.len(),
            };
            if rows == 0 {
                continue;
            }
            let mut arrays = work
                .schema
                .fields()
                .iter()
                .zip(&work.sources)
                .zip(&work.codes)
                .map(|((field, source), &codes)| match *source {
                    Source::File(i) if codes => dictionary_column(&chunk, i, selection.as_deref(), field),
                    Source::Converted(i) => to_engine(arrow_column(&chunk, i, selection.as_deref())?, field),
                    Source::File(i) => arrow_column_as(&chunk, i, selection.as_deref(), field),
                    Source::Partition(k) => partition_values(&work.partition_columns[k], split, k, rows),
                })
                .collect::<Result<Vec<_>>>()?;
            if let Some(n) = left {
                if rows > *n {
                    arrays = arrays.iter().map(|a| a.slice(0, *n)).collect();
                    rows = *n;
                }
                *n -= rows;
            }
            let options = RecordBatchOptions::new().with_row_count(Some(rows));
            let batch = RecordBatch::try_new_with_options(work.schema.clone(), arrays, &options)
                .map_err(|e| Error::file(&split.path, format!("scan batch does not match the table's columns: {e}")))?;
            return Ok(Some(batch));
        }
        Ok(None)
    }
}
