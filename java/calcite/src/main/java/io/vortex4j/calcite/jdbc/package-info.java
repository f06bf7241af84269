/**
 * The {@code jdbc:vortex:} driver and how its connections run Calcite: statement preparation that
 * takes a terminating {@code ;} ({@link io.vortex4j.calcite.jdbc.Statements}), says where a syntax
 * error is ({@link io.vortex4j.calcite.jdbc.SyntaxError}), names result columns by their
 * expressions and gives EXPLAIN a row per plan line, with a validator that lets columns win over
 * niladic functions; a per-connection plan cache; plans of one pushed aggregate found and run
 * without Calcite's cost-based planner and generated code; cancellation checks on joins; and
 * every failure as one readable {@link java.sql.SQLException}.
 *
 * <p>Entry points: {@link io.vortex4j.calcite.jdbc.VortexDriver} (registered with {@link
 * java.sql.DriverManager}; {@link io.vortex4j.calcite.VortexSql#connect} opens the same
 * connection), {@link io.vortex4j.calcite.jdbc.PlannerWarmUp} for a process about to plan its
 * first statement, {@link io.vortex4j.calcite.jdbc.QueryErrors} for the errors. The tables,
 * scans and push-down rules are the adapter's ({@link io.vortex4j.calcite}).
 */
package io.vortex4j.calcite.jdbc;
