package io.vortex4j.calcite;

import java.io.File;
import java.nio.file.Path;
import java.util.Map;
import org.apache.calcite.model.ModelHandler;
import org.apache.calcite.schema.Schema;
import org.apache.calcite.schema.SchemaFactory;
import org.apache.calcite.schema.SchemaPlus;

/**
 * Creates a {@link VortexSchema} from a Calcite model:
 *
 * <pre>{@code
 * {
 *   "version": "1.0",
 *   "defaultSchema": "vortex",
 *   "schemas": [{
 *     "name": "vortex",
 *     "type": "custom",
 *     "factory": "io.vortex4j.calcite.VortexSchemaFactory",
 *     "operand": {"directory": "data", "pushdown": true}
 *   }]
 * }
 * }</pre>
 *
 * <p>Operands: {@code directory} (required; relative paths are resolved against the model
 * file's directory, or the working directory for an inline model) and {@code pushdown}
 * (optional boolean or "true"/"false"; default: the system property {@code vortex4j.pushdown},
 * which defaults to true). Use the model with {@code jdbc:calcite:model=PATH} or {@code
 * jdbc:calcite:model=inline:{...}}; add {@code ;caseSensitive=false;unquotedCasing=UNCHANGED}
 * so that unquoted lower-case table and column names work (see {@link VortexSchema}).
 */
public final class VortexSchemaFactory implements SchemaFactory {
    /** The instance Calcite's model handler may use. */
    public static final VortexSchemaFactory INSTANCE = new VortexSchemaFactory();

    /** Calcite instantiates factories by their public no-argument constructor. */
    public VortexSchemaFactory() {}

    /** Whether push-down is on by default: the system property {@code vortex4j.pushdown} (default true). */
    public static boolean defaultPushdown() {
        return !"false".equalsIgnoreCase(System.getProperty("vortex4j.pushdown", "true").trim());
    }

    @Override
    public Schema create(SchemaPlus parentSchema, String name, Map<String, Object> operand) {
        Object dir = operand.get("directory");
        if (dir == null) {
            throw new IllegalArgumentException("Vortex schema '" + name + "': the operand 'directory' is required");
        }
        File directory = new File(dir.toString());
        Object base = operand.get(ModelHandler.ExtraOperand.BASE_DIRECTORY.camelName);
        if (base instanceof File && !directory.isAbsolute()) {
            directory = new File((File) base, dir.toString());
        }
        Object pd = operand.get("pushdown");
        boolean pushdown = pd == null ? defaultPushdown() : Boolean.parseBoolean(pd.toString().trim());
        return new VortexSchema(directory.toPath(), pushdown);
    }

    /** A schema over {@code directory} without a model. */
    public static VortexSchema create(Path directory, boolean pushdown) {
        return new VortexSchema(directory, pushdown);
    }
}
