//! One query of the native engine: its tables registered, its Substrait plan turned into
//! DataFusion's logical plan, optimized and executed, the results streamed as Arrow batches.

use std::sync::Arc;

use arrow::array::RecordBatch;
use arrow::array::RecordBatchReader;
use arrow::datatypes::DataType;
use arrow::datatypes::Field;
use arrow::datatypes::Schema;
use arrow::datatypes::SchemaRef;
use arrow::error::ArrowError;
use arrow::ffi_stream::FFI_ArrowArrayStream;
use datafusion::catalog::MemorySchemaProvider;
use datafusion::common::TableReference;
use datafusion::common::tree_node::TreeNode;
use datafusion::execution::SendableRecordBatchStream;
use datafusion::execution::runtime_env::RuntimeEnvBuilder;
use datafusion::logical_expr::LogicalPlan;
use datafusion::physical_plan::ExecutionPlan;
use datafusion::physical_plan::displayable;
use datafusion::physical_plan::execute_stream;
use datafusion::prelude::SessionConfig;
use datafusion::prelude::SessionContext;
use datafusion_substrait::logical_plan::consumer::from_substrait_plan;
use datafusion_substrait::substrait::proto::Plan;
use futures::StreamExt;
use once_cell::sync::Lazy;
use prost::Message;
use tokio::runtime::Runtime;

use super::dynamic::without_local_filters;
use super::fold::fold_on_scans;
use super::scan::PartitionColumn;
use super::scan::Reading;
use super::scan::Split;
use super::stop::Cancel;
use super::stop::stoppable;
use super::table::VortexTable;
use crate::error::Error;
use crate::error::Result;

/// The engine's threads, shared by every query of more than one thread: DataFusion's partitions
/// run on them.
static SHARED: Lazy<Arc<Runtime>> = Lazy::new(|| {
    Arc::new(
        tokio::runtime::Builder::new_multi_thread()
            .thread_name("vortex4j-engine")
            .enable_time()
            .build()
            .expect("the engine's thread pool starts"),
    )
});

/// A query being set up: a DataFusion session with the query's tables.
pub struct Query {
    ctx: SessionContext,
    threads: usize,
    cancel: Arc<Cancel>,
    /// Where the query runs: the shared threads, or for one thread the thread reading its results.
    runtime: Arc<Runtime>,
}

fn engine_error(what: &str, e: impl std::fmt::Display) -> Error {
    Error::Invalid(format!("native engine: {what}: {e}"))
}

impl Query {
    /// A query keeping `threads` threads busy, its operators' memory bounded by `memory_limit`
    /// bytes (0: unbounded); its plan decides how ([`Query::plan`]). A query of one thread runs
    /// on the thread that reads its results (a current-thread runtime of its own).
    pub fn new(threads: usize, memory_limit: usize) -> Result<Self> {
        let runtime = if threads <= 1 {
            let one = tokio::runtime::Builder::new_current_thread().enable_time().build();
            Arc::new(one.map_err(|e| engine_error("cannot start", e))?)
        } else {
            SHARED.clone()
        };
        let threads = threads.max(1);
        let mut env = RuntimeEnvBuilder::new();
        if memory_limit > 0 {
            env = env.with_memory_limit(memory_limit, 1.0);
        }
        let env = env.build_arc().map_err(|e| engine_error("cannot start", e))?;
        let reading = if threads == 1 { Reading::Inline } else { Reading::Ahead };
        let config = SessionConfig::new()
            .with_target_partitions(threads)
            .with_information_schema(false)
            .with_extension(Arc::new(reading));
        let ctx = SessionContext::new_with_config_rt(config, env);
        // Substrait's extract, as the Java side writes it (the component a string): date_part.
        ctx.register_udf(datafusion::functions::datetime::date_part().as_ref().clone().with_aliases(["extract"]));
        Ok(Query { ctx, threads, cancel: Arc::default(), runtime })
    }

    /// The flag that stops this query's execution.
    pub fn cancel(&self) -> Arc<Cancel> {
        self.cancel.clone()
    }

    /// Registers table `names` (its qualified name as the plan names it: table, schema.table or
    /// catalog.schema.table) over `splits`, whose values of `partition_columns` they carry.
    pub fn register(&self, names: &[String], splits: Vec<Split>, partition_columns: Vec<PartitionColumn>) -> Result<()> {
        let table = Arc::new(VortexTable::new(&names.join("."), splits, partition_columns)?);
        let reference = match names {
            [t] => TableReference::bare(t.as_str()),
            [s, t] => TableReference::partial(s.as_str(), t.as_str()),
            [c, s, t] => TableReference::full(c.as_str(), s.as_str(), t.as_str()),
            _ => return Err(Error::Invalid(format!("a table name has 1 to 3 parts, not {names:?}"))),
        };
        if let (Some(schema), catalog) = (reference.schema(), reference.catalog().unwrap_or("datafusion")) {
            let catalog = self
                .ctx
                .catalog(catalog)
                .ok_or_else(|| Error::Invalid(format!("native engine: no catalog {catalog}")))?;
            if catalog.schema(schema).is_none() {
                catalog
                    .register_schema(schema, Arc::new(MemorySchemaProvider::new()))
                    .map_err(|e| engine_error("cannot register a schema", e))?;
            }
        }
        self.ctx.register_table(reference, table).map_err(|e| engine_error("cannot register a table", e))?;
        Ok(())
    }

    /// The physical plan of Substrait plan `plan` (its protobuf bytes).
    ///
    /// A plan without joins runs in `threads` partitions whose scans read on the thread asking
    /// for their batches. A plan with joins runs in `threads / 2` partitions (at least one), each
    /// scan partition reading ahead on a thread of its own: two threads per partition, since
    /// with `threads` partitions DataFusion hash-partitions both sides of each join (on 2 cores,
    /// TPC-H's joins ran up to 3x slower so). A query of one thread has one partition, read on
    /// that thread.
    fn plan(&self, plan: &[u8]) -> Result<Arc<dyn ExecutionPlan>> {
        let plan = Plan::decode(plan).map_err(|e| engine_error("not a Substrait plan", e))?;
        self.runtime.block_on(async {
            let logical = from_substrait_plan(&self.ctx.state(), &plan)
                .await
                .map_err(|e| engine_error("cannot read the plan", e))?;
            let joins = logical
                .exists(|p| Ok(matches!(p, LogicalPlan::Join(_))))
                .map_err(|e| engine_error("cannot read the plan", e))?;
            let (partitions, reading) = match (self.threads, joins) {
                (1, _) => (1, Reading::Inline),
                (n, false) => (n, Reading::Inline),
                (n, true) => ((n / 2).max(1), Reading::Ahead),
            };
            {
                let state = self.ctx.state_ref();
                let mut state = state.write();
                state.config_mut().options_mut().execution.target_partitions = partitions;
                state.config_mut().set_extension(Arc::new(reading));
            }
            let frame = self.ctx.execute_logical_plan(logical).await.map_err(|e| engine_error("cannot plan", e))?;
            let physical = frame.create_physical_plan().await.map_err(|e| engine_error("cannot plan", e))?;
            let physical = without_local_filters(physical).map_err(|e| engine_error("cannot plan", e))?;
            fold_on_scans(physical).map_err(|e| engine_error("cannot plan", e))
        })
    }

    /// DataFusion's physical plan of `plan`, an operator per line.
    pub fn explain(&self, plan: &[u8]) -> Result<String> {
        Ok(displayable(self.plan(plan)?.as_ref()).indent(true).to_string())
    }

    /// Starts executing `plan`; its batches are read from the returned stream.
    pub fn execute(&self, plan: &[u8]) -> Result<FFI_ArrowArrayStream> {
        let physical = stoppable(self.plan(plan)?, &self.cancel).map_err(|e| engine_error("cannot execute", e))?;
        let stream = {
            let _runtime = self.runtime.enter();
            execute_stream(physical, self.ctx.task_ctx()).map_err(|e| engine_error("cannot execute", e))?
        };
        let schema = plain_schema(&stream.schema());
        let results = Results { stream: Some(stream), schema, cancel: self.cancel.clone(), runtime: self.runtime.clone() };
        Ok(FFI_ArrowArrayStream::new(Box::new(results)))
    }
}

/// The results as Java reads them, one batch per call on the reading thread.
struct Results {
    /// Dropped (execution stopped) at the end, on an error or when cancelled.
    stream: Option<SendableRecordBatchStream>,
    schema: SchemaRef,
    cancel: Arc<Cancel>,
    /// Last: the stream is dropped first.
    runtime: Arc<Runtime>,
}

impl Iterator for Results {
    type Item = std::result::Result<RecordBatch, ArrowError>;

    fn next(&mut self) -> Option<Self::Item> {
        let stream = self.stream.as_mut()?;
        let cancel = self.cancel.clone();
        let next = self.runtime.block_on(async {
            let cancelled = cancel.notify.notified();
            tokio::pin!(cancelled);
            cancelled.as_mut().enable();
            if cancel.raised() {
                return None;
            }
            tokio::select! {
                batch = stream.next() => Some(batch),
                _ = cancelled => None,
            }
        });
        let item = match next {
            None => Some(Err(ArrowError::ExternalError(Box::new(Error::Invalid("the query was cancelled".into()))))),
            Some(None) => None,
            Some(Some(Ok(batch))) => Some(plain_batch(batch, &self.schema)),
            Some(Some(Err(e))) => Some(Err(ArrowError::ExternalError(Box::new(e)))),
        };
        if !matches!(item, Some(Ok(_))) {
            self.stream = None;
        }
        item
    }
}

impl RecordBatchReader for Results {
    fn schema(&self) -> SchemaRef {
        self.schema.clone()
    }
}

/// The type Java reads a result column as: dictionaries and views decoded, large strings plain.
fn plain_type(t: &DataType) -> DataType {
    match t {
        DataType::Dictionary(_, value) => plain_type(value),
        DataType::Utf8View | DataType::LargeUtf8 => DataType::Utf8,
        DataType::BinaryView | DataType::LargeBinary => DataType::Binary,
        t => t.clone(),
    }
}

fn plain_schema(schema: &Schema) -> SchemaRef {
    let fields: Vec<Field> = schema.fields().iter().map(|f| f.as_ref().clone().with_data_type(plain_type(f.data_type()))).collect();
    Arc::new(Schema::new(fields))
}

fn plain_batch(batch: RecordBatch, schema: &SchemaRef) -> std::result::Result<RecordBatch, ArrowError> {
    let columns = batch
        .columns()
        .iter()
        .zip(schema.fields())
        .map(|(c, f)| if c.data_type() == f.data_type() { Ok(c.clone()) } else { arrow::compute::cast(c, f.data_type()) })
        .collect::<std::result::Result<Vec<_>, _>>()?;
    RecordBatch::try_new(schema.clone(), columns)
}

#[cfg(test)]
mod tests {
    use arrow::array::AsArray;
    use arrow::datatypes::Int64Type;

    use super::*;
    use crate::predicate::CmpOp;
    use crate::predicate::Literal;
    use crate::predicate::Predicate;

    fn rows(q: &Query, sql: &str) -> Vec<RecordBatch> {
        q.runtime.block_on(async { q.ctx.sql(sql).await.unwrap().collect().await.unwrap() })
    }

    fn count(q: &Query, sql: &str) -> u64 {
        let batches = rows(q, sql);
        batches[0].column(0).as_primitive::<Int64Type>().value(0) as u64
    }

    /// The dictionary fixture (6 chunks of 3000 rows, `seed`) written to a temporary file and
    /// registered as table `t` (a split per chunk) of a query on `threads` threads: its path,
    /// the generated strings, the open file and the query.
    fn fixture_table(name: &str, seed: u64, threads: usize) -> (String, Vec<Option<String>>, crate::io::file::OpenFile, Query) {
        let path = std::env::temp_dir().join(format!("vortex4j-engine{name}-{}.vortex", std::process::id()));
        let path = path.to_str().unwrap().to_string();
        let strings = crate::fixture::write_dict_fixture(&path, 6, 3000, seed, false).unwrap();
        let (file, splits) = chunk_splits(&path);
        assert!(splits.len() > 1);
        let q = Query::new(threads, 0).unwrap();
        q.register(&["t".to_string()], splits, Vec::new()).unwrap();
        (path, strings, file, q)
    }

    /// Counts through DataFusion over our scan (filters pushed into the prepared filter, a split
    /// per partition) equal vortex's own filtered scan, on one thread (the scan reading inline)
    /// and on three; the pushed filter shows in EXPLAIN.
    #[test]
    fn filtered_counts_equal_vortex_filtered_scan() {
        for threads in [1, 3] {
            filtered_counts_on(threads);
        }
    }

    fn filtered_counts_on(threads: usize) {
        let (path, strings, file, q) = fixture_table(&format!("-{threads}"), 11, threads);
        let path = path.as_str();
        let common = strings[0].clone().unwrap();
        let eq = Predicate::Compare { column: "s".into(), op: CmpOp::Eq, value: Literal::Utf8(common.clone()) };
        let cases = [
            (format!("s = '{common}'"), eq.clone()),
            (format!("NOT (s = '{common}')"), Predicate::Not(Box::new(eq.clone()))),
            (
                "v > 100 OR s IS NULL".to_string(),
                Predicate::Or(vec![
                    Predicate::Compare { column: "v".into(), op: CmpOp::Gt, value: Literal::I64(100) },
                    Predicate::IsNull { column: "s".into(), negated: false },
                ]),
            ),
        ];
        for (condition, predicate) in cases {
            let expected = crate::scan::filtered_rows(&file, &predicate).unwrap().len() as u64;
            assert_eq!(count(&q, &format!("SELECT count(*) FROM t WHERE {condition}")), expected, "{condition}");
        }
        let generated = strings.iter().filter(|s| s.as_deref() == Some(common.as_str())).count() as u64;
        assert_eq!(count(&q, &format!("SELECT count(*) FROM t WHERE s = '{common}'")), generated);
        let plan = rows(&q, &format!("EXPLAIN SELECT v FROM t WHERE s = '{common}'"));
        let text = arrow::util::pretty::pretty_format_batches(&plan).unwrap().to_string();
        assert!(text.contains("VortexScan: table=t") && text.contains("filter=s = "), "{text}");
        std::fs::remove_file(path).unwrap();
    }

    /// A hash join's build-side keys reach the scans below its probe side as a dynamic filter:
    /// one under an aggregate keeps it and hands up only the rows that can match; the filter of
    /// a join on the scan right below it, which would repeat the join's lookup, is removed.
    #[test]
    fn join_keys_filter_the_scans_under_a_probe_side() {
        for threads in [1, 2] {
            join_keys_filter_on(threads);
        }
    }

    fn join_keys_filter_on(threads: usize) {
        let (path, strings, file, q) = fixture_table(&format!("-join-{threads}"), 5, threads);
        let path = path.as_str();
        // Ids are 0, 1, ... (one per row): each row with v = 7 matches its own group.
        let sevens = crate::scan::filtered_rows(&file, &Predicate::Compare { column: "v".into(), op: CmpOp::Eq, value: Literal::I64(7) })
            .unwrap()
            .len();
        assert!(sevens > 0);
        let sql = "SELECT count(*) FROM t a JOIN (SELECT id, count(*) AS n FROM t GROUP BY id) g ON a.id = g.id WHERE a.v = 7";
        assert_eq!(count(&q, sql), sevens as u64);
        let local = "SELECT count(*) FROM t a JOIN t b ON a.id = b.id WHERE a.v = 7";
        assert_eq!(count(&q, local), sevens as u64);
        assert_eq!(scans_handing_up(&q, sql), vec![(false, sevens), (true, sevens)]);
        assert_eq!(scans_handing_up(&q, local), vec![(false, sevens), (false, strings.len())]);
        std::fs::remove_file(path).unwrap();
    }

    /// A table of `rows` rows in chunks written by our converter from Parquet: `s` a string of 9
    /// values and nulls, `f` one of 2, `u` one of 5000, `p` DECIMAL(15, 2) with nulls, `q`
    /// DECIMAL(12, 2), `big` DECIMAL(20, 2) whose products leave 64 bits, `n` BIGINT, `day` DATE.
    fn decimal_table(name: &str, rows: usize) -> (std::path::PathBuf, Vec<Split>) {
        use arrow::array::Date32Array;
        use arrow::array::Decimal128Array;
        use arrow::array::Int64Array;
        use arrow::array::StringArray;
        let dir = std::env::temp_dir().join(format!("vortex4j-fold-{name}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let schema = Arc::new(Schema::new(vec![
            Field::new("s", DataType::Utf8, true),
            Field::new("f", DataType::Utf8, false),
            Field::new("u", DataType::Utf8, false),
            Field::new("p", DataType::Decimal128(15, 2), true),
            Field::new("q", DataType::Decimal128(12, 2), false),
            Field::new("big", DataType::Decimal128(20, 2), false),
            Field::new("n", DataType::Int64, false),
            Field::new("day", DataType::Date32, false),
        ]));
        let mut state = 0x2545_f491_4f6c_dd1du64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let parquet = dir.join("t.parquet");
        let mut w = parquet::arrow::ArrowWriter::try_new(std::fs::File::create(&parquet).unwrap(), schema.clone(), None).unwrap();
        for start in (0..rows).step_by(50_000) {
            let n = 50_000.min(rows - start);
            let r: Vec<u64> = (0..n).map(|_| next()).collect();
            let s: StringArray = r.iter().map(|v| (v % 10 != 0).then(|| format!("sym{}", v % 9))).collect();
            let f: StringArray = r.iter().map(|v| Some(if (v >> 8) % 3 == 0 { "A" } else { "F" })).collect();
            let u: StringArray = r.iter().map(|v| Some(format!("u{}", (v >> 16) % 5000))).collect();
            let p = r.iter().map(|v| ((v >> 4) % 17 != 0).then(|| ((v >> 20) % 10_000_000) as i128)).collect::<Decimal128Array>();
            let q = r.iter().map(|v| Some(((v >> 30) % 11) as i128)).collect::<Decimal128Array>();
            let big = r.iter().map(|v| Some(((v >> 10) % 10_000_000_000_000_000) as i128 - 5_000_000_000_000_000)).collect::<Decimal128Array>();
            let columns: Vec<arrow::array::ArrayRef> = vec![
                Arc::new(s),
                Arc::new(f),
                Arc::new(u),
                Arc::new(p.with_precision_and_scale(15, 2).unwrap()),
                Arc::new(q.with_precision_and_scale(12, 2).unwrap()),
                Arc::new(big.with_precision_and_scale(20, 2).unwrap()),
                Arc::new(r.iter().map(|v| (v % 1000) as i64 - 100).collect::<Int64Array>()),
                Arc::new(r.iter().map(|v| Some(9000 + ((v >> 40) % 2000) as i32)).collect::<Date32Array>()),
            ];
            w.write(&RecordBatch::try_new(schema.clone(), columns).unwrap()).unwrap();
        }
        w.close().unwrap();
        let vortex = dir.join("t.vortex");
        let vortex = vortex.to_str().unwrap().to_string();
        let options = crate::convert::ConvertOptions::parse::<&str>(&[]).unwrap();
        crate::convert::convert(&[parquet.to_str().unwrap()], &vortex, options).unwrap();
        (dir, chunk_splits(&vortex).1)
    }

    /// The file at `path`, opened, and a split per chunk of it.
    fn chunk_splits(path: &str) -> (crate::io::file::OpenFile, Vec<Split>) {
        let file = crate::io::file::open(path).unwrap();
        let splits = crate::scan::natural_splits(&file, None)
            .unwrap()
            .into_iter()
            .map(|rows| Split { path: path.to_string(), rows, planned: None, partition: Vec::new() })
            .collect();
        (file, splits)
    }

    /// `sql`'s plan as DataFusion made it, or with partial aggregates folded on our scans: the
    /// plan's text and the result's rows, sorted (or the error).
    fn answer(q: &Query, sql: &str, fold: bool) -> (String, std::result::Result<Vec<String>, String>) {
        let physical = q.runtime.block_on(async { q.ctx.sql(sql).await.unwrap().create_physical_plan().await.unwrap() });
        let physical = if fold { fold_on_scans(physical).unwrap() } else { physical };
        let plan = displayable(physical.as_ref()).indent(true).to_string();
        let rows = q.runtime.block_on(datafusion::physical_plan::collect(physical, q.ctx.task_ctx())).map(|batches| {
            let text = arrow::util::pretty::pretty_format_batches(&batches).unwrap().to_string();
            let mut rows: Vec<String> = text.lines().filter(|l| l.starts_with('|')).skip(1).map(str::to_string).collect();
            rows.sort();
            rows
        });
        (plan, rows.map_err(|e| e.to_string()))
    }

    /// Partial aggregates folded on our scan's batches answer exactly as DataFusion's own
    /// aggregates: groups by dictionary strings with nulls and by a string of 5000 values, sums
    /// of decimal arithmetic with casts and nulls (one leaving 64 bits, run again in 128), of an
    /// integer, counts, filters, no rows, no GROUP BY; on one thread and two. A group column the
    /// filter reads is not folded.
    #[test]
    fn folded_aggregates_answer_as_datafusion() {
        let (dir, splits) = decimal_table("answers", 230_000);
        assert!(splits.len() > 1);
        let cases = [
            ("SELECT s, f, count(*), sum(p), sum(q), sum(p * (1 - q)), sum(p * (1 - q) * (1 + q)) FROM t \
              WHERE day <= DATE '1995-01-01' GROUP BY s, f", true),
            ("SELECT f, u, count(*), sum(n), sum(q * 2) FROM t GROUP BY f, u", true),
            ("SELECT s, sum(big * big), sum(big * q), count(*) FROM t GROUP BY s", true),
            ("SELECT sum(p * q), sum(n), count(*) FROM t WHERE n > 10", true),
            ("SELECT s, count(*), sum(p) FROM t WHERE n < -1000 GROUP BY s", true),
            ("SELECT count(*), sum(p) FROM t WHERE n < -1000", true),
            ("SELECT s, sum(p) FROM t WHERE s <> 'sym3' GROUP BY s", false),
            ("SELECT s, avg(p), min(q) FROM t GROUP BY s", false),
        ];
        for threads in [1, 2] {
            let q = Query::new(threads, 0).unwrap();
            q.register(&["t".to_string()], splits.clone(), Vec::new()).unwrap();
            for (sql, folds) in cases {
                let (plain_plan, plain) = answer(&q, sql, false);
                let (plan, folded) = answer(&q, sql, true);
                assert!(!plain_plan.contains("VortexAggregate"), "{plain_plan}");
                assert_eq!(plan.contains("VortexAggregate"), folds, "{sql}\n{plan}");
                let plain = plain.unwrap_or_else(|e| panic!("{sql}: {e}"));
                assert!(!plain.is_empty() || sql.contains("-1000"), "{sql}");
                assert_eq!(folded.unwrap_or_else(|e| panic!("{sql}: {e}")), plain, "{sql} on {threads} threads");
            }
        }
        std::fs::remove_dir_all(dir).unwrap();
    }

    /// Per scan of `sql`'s plan as executed: whether it has dynamic filters, and the rows it
    /// handed up; sorted.
    fn scans_handing_up(q: &Query, sql: &str) -> Vec<(bool, usize)> {
        let physical = q.runtime.block_on(async { q.ctx.sql(sql).await.unwrap().create_physical_plan().await.unwrap() });
        let physical = without_local_filters(physical).unwrap();
        q.runtime.block_on(datafusion::physical_plan::collect(physical.clone(), q.ctx.task_ctx())).unwrap();
        let mut scans = Vec::new();
        let mut visit = vec![physical.clone()];
        while let Some(node) = visit.pop() {
            if let Some(scan) = node.downcast_ref::<crate::engine::scan::VortexScanExec>() {
                scans.push((scan.has_dynamic_filters(), node.metrics().unwrap().output_rows().unwrap()));
            }
            visit.extend(node.children().into_iter().cloned());
        }
        scans.sort();
        scans
    }
}
