//! The native query engine: a query Calcite planned, handed over as a Substrait plan, executed by
//! DataFusion with our scan as its leaf (a table's splits as DataFusion's partitions, the filters
//! DataFusion pushes down evaluated by the prepared filter and zone maps), the results streamed
//! to Java through Arrow's C stream interface. See docs/engine.md.

pub(crate) mod dynamic; // the filters operators raise while running, applied by our scan
pub(crate) mod filters; // DataFusion's pushed filters as our predicates, where exact
pub(crate) mod fold; // partial aggregates folded on our scan's batches: groups by codes, decimals in 64 bits
pub(crate) mod query; // a query's session, tables, plan, execution and cancellation
pub(crate) mod scan; // our scan as DataFusion's leaf operator
pub(crate) mod stop; // stopping a running query, batch by batch
pub(crate) mod table; // a Vortex table as a DataFusion table
pub(crate) mod types; // the Arrow types columns are read as: Calcite's view of them
