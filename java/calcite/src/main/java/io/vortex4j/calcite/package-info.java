/**
 * The Apache Calcite adapter: SQL over a directory of Vortex files.
 *
 * <p>Entry points: {@link io.vortex4j.calcite.VortexSql#connect(java.nio.file.Path, boolean)}
 * for a ready JDBC connection, the URL {@code jdbc:vortex:DIRECTORY} ({@link
 * io.vortex4j.calcite.jdbc.VortexDriver}), or {@link io.vortex4j.calcite.VortexSchemaFactory} in
 * a Calcite model. Each {@code NAME.vortex} file is the table {@code NAME} ({@link
 * io.vortex4j.calcite.VortexSchema}); column types follow {@code VortexColumn}'s mapping.
 *
 * <p>With push-down (the default; {@code vortex4j.pushdown=false} or the schema operand {@code
 * pushdown: false} turns it off) the planner rules of {@link io.vortex4j.calcite.VortexRules}
 * move projections, the exactly translatable part of filters and simple aggregations into the
 * scan ({@link io.vortex4j.calcite.VortexTableScan}, {@link
 * io.vortex4j.calcite.VortexAggregateScan}). A filter leaves Calcite's plan only when the reader
 * selects exactly the rows Calcite would ({@code FilterTranslator}); everything else stays with
 * Calcite, so the answers are Calcite's either way. The driver and how its connections plan
 * statements are in {@link io.vortex4j.calcite.jdbc}. See {@code docs/sql.md} for
 * the details.
 */
package io.vortex4j.calcite;
