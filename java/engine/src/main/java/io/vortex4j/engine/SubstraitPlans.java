package io.vortex4j.engine;

import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.Message;
import io.substrait.extension.DefaultExtensionCatalog;
import io.substrait.extension.SimpleExtension;
import io.substrait.isthmus.ConverterProvider;
import io.substrait.isthmus.SubstraitRelVisitor;
import io.substrait.isthmus.TypeConverter;
import io.substrait.isthmus.expression.AggregateFunctionConverter;
import io.substrait.isthmus.expression.ScalarFunctionConverter;
import io.substrait.isthmus.expression.WindowFunctionConverter;
import io.substrait.plan.Plan;
import io.substrait.plan.PlanProtoConverter;
import io.substrait.proto.Expression;
import io.substrait.proto.FunctionArgument;
import io.substrait.proto.SimpleExtensionDeclaration;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelRoot;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.sql.SqlKind;

/**
 * A logical plan as a Substrait plan (isthmus, with Substrait's standard function extensions,
 * MIN/MAX of strings and DataFusion's {@code date_trunc} and {@code to_char} ({@link NativeFunctions})):
 * what the native engine's DataFusion reads (datafusion-substrait). The plan names tables by
 * their qualified names, under which {@link NativeTables} registers them.
 *
 * <p>Substrait's {@code extract(component, value)} names the component with an enum argument,
 * which DataFusion's reader does not take: it becomes DataFusion's {@code date_part} component
 * name as a string (the native engine registers {@code extract} as {@code date_part}; the
 * indexing argument of months, quarters and days must be ONE, date_part's), and the
 * call is cast to the type the plan declares for it (BIGINT: DataFusion's is 32-bit). Components
 * whose numbering differs between Calcite and DataFusion (days of the week, weeks) are declined.
 */
final class SubstraitPlans {
    private SubstraitPlans() {}

    /** Substrait's extract components whose meaning DataFusion's date_part shares, by its name for them. */
    private static final Map<String, String> EXTRACT_COMPONENTS = Map.of("YEAR", "year", "QUARTER", "quarter",
            "MONTH", "month", "DAY", "day");

    /** Substrait's standard extensions, and MIN/MAX of strings ({@code functions_string_order.yaml}). */
    private static final SimpleExtension.ExtensionCollection EXTENSIONS = DefaultExtensionCatalog.DEFAULT_COLLECTION
            .merge(load("functions_string_order.yaml")).merge(load("functions_datetime_text.yaml"));

    private static SimpleExtension.ExtensionCollection load(String resource) {
        try (java.io.InputStream in = SubstraitPlans.class.getResourceAsStream(resource)) {
            return SimpleExtension.load(in);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException("cannot read " + resource, e);
        }
    }

    /** isthmus's converters with {@link NativeFunctions#SIGNATURES} besides Substrait's own. */
    private static ConverterProvider converters(RelDataTypeFactory types) {
        return new ConverterProvider(types, EXTENSIONS,
                new ScalarFunctionConverter(EXTENSIONS.scalarFunctions(), NativeFunctions.SIGNATURES, types,
                        TypeConverter.DEFAULT),
                new AggregateFunctionConverter(EXTENSIONS.aggregateFunctions(), types),
                new WindowFunctionConverter(EXTENSIONS.windowFunctions(), types), TypeConverter.DEFAULT);
    }

    /** The protobuf bytes of {@code rel}'s plan; throws {@link NativeTables.Declined} where isthmus cannot convert it. */
    static byte[] of(RelNode rel) {
        io.substrait.proto.Plan proto;
        try {
            Plan.Root root = SubstraitRelVisitor.convert(RelRoot.of(rel, SqlKind.SELECT),
                    converters(rel.getCluster().getTypeFactory()));
            proto = new PlanProtoConverter().toProto(Plan.builder().addRoots(root).build());
        } catch (RuntimeException e) {
            throw new NativeTables.Declined("no Substrait plan: " + e.getMessage());
        }
        Set<Integer> extract = new HashSet<>();
        for (SimpleExtensionDeclaration d : proto.getExtensionsList()) {
            if (d.hasExtensionFunction() && d.getExtensionFunction().getName().startsWith("extract:")) {
                extract.add(d.getExtensionFunction().getFunctionAnchor());
            }
        }
        return extract.isEmpty() ? proto.toByteArray() : rewrite(proto, extract).toByteArray();
    }

    /** {@code m} with every extract call (function anchors {@code extract}) in DataFusion's form. */
    private static Message rewrite(Message m, Set<Integer> extract) {
        Message.Builder b = null;
        for (Map.Entry<FieldDescriptor, Object> e : m.getAllFields().entrySet()) {
            FieldDescriptor f = e.getKey();
            if (f.getJavaType() != FieldDescriptor.JavaType.MESSAGE) {
                continue;
            }
            if (f.isRepeated()) {
                List<?> values = (List<?>) e.getValue();
                for (int i = 0; i < values.size(); i++) {
                    Message v = (Message) values.get(i);
                    Message n = rewrite(v, extract);
                    if (n != v) {
                        b = b == null ? m.toBuilder() : b;
                        b.setRepeatedField(f, i, n);
                    }
                }
            } else {
                Message v = (Message) e.getValue();
                Message n = rewrite(v, extract);
                if (n != v) {
                    b = b == null ? m.toBuilder() : b;
                    b.setField(f, n);
                }
            }
        }
        Message out = b == null ? m : b.build();
        if (out instanceof Expression x && x.hasScalarFunction()
                && extract.contains(x.getScalarFunction().getFunctionReference())) {
            return datePart(x.getScalarFunction());
        }
        return out;
    }

    /** {@code extract(COMPONENT, v)} as {@code CAST(extract('component', v) AS <its type>)}. */
    private static Expression datePart(Expression.ScalarFunction call) {
        Expression.ScalarFunction.Builder b = call.toBuilder();
        FunctionArgument component = call.getArguments(0);
        if (!component.hasEnum()) {
            throw new NativeTables.Declined("EXTRACT without a component");
        }
        String name = EXTRACT_COMPONENTS.get(component.getEnum().toUpperCase(Locale.ROOT));
        if (name == null) {
            throw new NativeTables.Declined("EXTRACT(" + component.getEnum() + ") is numbered differently by"
                    + " DataFusion");
        }
        b.clearArguments().addArguments(FunctionArgument.newBuilder()
                .setValue(Expression.newBuilder().setLiteral(Expression.Literal.newBuilder().setString(name))));
        for (FunctionArgument a : call.getArgumentsList().subList(1, call.getArgumentsCount())) {
            if (!a.hasEnum()) {
                b.addArguments(a);
            } else if (!a.getEnum().equalsIgnoreCase("ONE")) {
                // The indexing of months, quarters and days: DataFusion's count from one.
                throw new NativeTables.Declined("EXTRACT(" + component.getEnum() + ") indexed from "
                        + a.getEnum());
            }
        }
        return Expression.newBuilder().setCast(Expression.Cast.newBuilder()
                .setType(call.getOutputType())
                .setInput(Expression.newBuilder().setScalarFunction(b))
                .setFailureBehavior(Expression.Cast.FailureBehavior.FAILURE_BEHAVIOR_THROW_EXCEPTION)).build();
    }
}
