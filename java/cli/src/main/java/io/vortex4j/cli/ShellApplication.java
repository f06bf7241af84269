package io.vortex4j.cli;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import sqlline.AbstractCommandHandler;
import sqlline.Application;
import sqlline.CommandHandler;
import sqlline.DispatchCallback;
import sqlline.SqlLine;
import sqlline.SqlLineOpts;

/**
 * sqlline configured for vortex4j (sqlline's {@code -ac}): its commands plus {@code !schema} and
 * {@code !stats}, whose help lines (in {@code !help}) start with {@code vortex4j:}.
 */
public final class ShellApplication extends Application {
    /** The sqlline options of the next shell ({@link Shell} sets them before starting it). */
    private static volatile Map<String, String> settings = Map.of();

    /** For sqlline, which instantiates the class by name. */
    public ShellApplication() {}

    static void settings(Map<String, String> options) {
        settings = options;
    }

    @Override
    public SqlLineOpts getOpts(SqlLine sqlLine) {
        SqlLineOpts opts = super.getOpts(sqlLine);
        settings.forEach(opts::set);
        return opts;
    }

    @Override
    public String getInfoMessage() {
        return "vortex4j shell (" + getVersion() + "); !help lists the commands, the vortex4j ones marked 'vortex4j:'";
    }

    @Override
    public Collection<CommandHandler> getCommandHandlers(SqlLine sqlLine) {
        List<CommandHandler> handlers = new ArrayList<>();
        handlers.add(new Additional(sqlLine, "schema",
                "vortex4j: !schema FILE|DIR - the columns of Vortex files: SQL types, nullability, dtypes", true));
        handlers.add(new Additional(sqlLine, "stats",
                "vortex4j: !stats FILE|DIR - per column: rows, bytes, nulls, min, max, distinct estimate", false));
        handlers.addAll(super.getCommandHandlers(sqlLine));
        return handlers;
    }

    /** {@code !schema} or {@code !stats}: the command's rows in the table format. */
    private static final class Additional extends AbstractCommandHandler {
        private final boolean schema;

        Additional(SqlLine sqlLine, String name, String help, boolean schema) {
            super(sqlLine, new String[] {name}, help, List.of());
            this.schema = schema;
        }

        @Override
        public void execute(String line, DispatchCallback callback) {
            String arg = line.replaceFirst("^!\\s*\\S+\\s*", "").strip();
            if (arg.endsWith(";")) {
                arg = arg.substring(0, arg.length() - 1).strip();
            }
            if (arg.isEmpty()) {
                sqlLine.error("usage: " + getHelpText().replaceFirst("^vortex4j: ", "").replaceFirst(" - .*", ""));
                callback.setToFailure();
                return;
            }
            try {
                StringWriter text = new StringWriter();
                PrintWriter w = new PrintWriter(text);
                OutputFormat.TABLE.write(schema ? SchemaCommand.of(arg) : StatsCommand.of(arg), w);
                w.flush();
                sqlLine.output(text.toString().stripTrailing());
                callback.setToSuccess();
            } catch (Exception e) {
                sqlLine.error(Main.oneLine(e));
                callback.setToFailure();
            }
        }
    }
}
