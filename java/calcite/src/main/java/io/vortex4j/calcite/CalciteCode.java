package io.vortex4j.calcite;

import java.lang.reflect.Modifier;
import java.lang.reflect.Type;
import java.util.List;
import org.apache.calcite.DataContext;
import org.apache.calcite.adapter.enumerable.EnumUtils;
import org.apache.calcite.adapter.enumerable.RexToLixTranslator;
import org.apache.calcite.adapter.java.JavaTypeFactory;
import org.apache.calcite.jdbc.JavaTypeFactoryImpl;
import org.apache.calcite.linq4j.function.Function1;
import org.apache.calcite.linq4j.tree.BlockBuilder;
import org.apache.calcite.linq4j.tree.ClassDeclaration;
import org.apache.calcite.linq4j.tree.ClassDeclarationFinder;
import org.apache.calcite.linq4j.tree.Expression;
import org.apache.calcite.linq4j.tree.Expressions;
import org.apache.calcite.linq4j.tree.MethodDeclaration;
import org.apache.calcite.linq4j.tree.ParameterExpression;
import org.apache.calcite.linq4j.tree.Primitive;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexExecutable;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexProgramBuilder;
import org.apache.calcite.sql.validate.SqlConformance;

/**
 * Compiles a Calcite expression into a Java function with Calcite's own code generator: the
 * {@link RexToLixTranslator} that {@code EnumerableCalc} uses, so the function computes exactly
 * what Calcite's generated plan would, and Janino via {@link RexExecutable}, as Calcite compiles
 * constant reductions. The function's constants (e.g. LIKE's pattern cache) become static fields,
 * as in Calcite's own generated classes.
 *
 * <p>Unless compiled {@code withContext}, the function reads no statement context: the generated
 * code has no {@code root} variable, so an expression whose code would read one (time zone,
 * current time, locale, parameters) fails to compile, and is thereby refused. With context, the
 * statement's {@link DataContext} is the last element of the input row.
 */
final class CalciteCode {
    private CalciteCode() {}

    /**
     * {@code expr} over rows of type {@code rowType} as a function of the row: an {@code
     * Object[]} of Calcite values when {@code arrayInput}, else the single value of the one field.
     * Returns the expression's value in Calcite's representation (boxed).
     *
     * @throws RuntimeException if Calcite cannot translate or Janino cannot compile it
     */
    static Function1<Object, Object> compile(RexBuilder rexBuilder, RexNode expr, RelDataType rowType,
            boolean arrayInput, SqlConformance conformance) {
        return compile(rexBuilder, expr, rowType, arrayInput, false, conformance);
    }

    /**
     * {@code expr} as a function of an {@code Object[]} row of type {@code rowType} followed by
     * the statement's {@link DataContext}, which the code may read as Calcite's generated plans
     * do (parameters, current time, time zone).
     */
    static Function1<Object, Object> compileWithContext(RexBuilder rexBuilder, RexNode expr, RelDataType rowType,
            SqlConformance conformance) {
        return compile(rexBuilder, expr, rowType, true, true, conformance);
    }

    private static Function1<Object, Object> compile(RexBuilder rexBuilder, RexNode expr, RelDataType rowType,
            boolean arrayInput, boolean withContext, SqlConformance conformance) {
        JavaTypeFactory typeFactory = rexBuilder.getTypeFactory() instanceof JavaTypeFactory j
                ? j : new JavaTypeFactoryImpl(rexBuilder.getTypeFactory().getTypeSystem());
        RexProgramBuilder program = new RexProgramBuilder(rowType, rexBuilder);
        program.addProject(expr, "e");
        ParameterExpression in = Expressions.parameter(Object.class, "in");
        RexToLixTranslator.InputGetter getter = (list, index, storageType) -> {
            Type type = storageType != null ? storageType
                    : typeFactory.getJavaClass(rowType.getFieldList().get(index).getType());
            Expression value = arrayInput
                    ? Expressions.arrayIndex(Expressions.convert_(in, Object[].class), Expressions.constant(index))
                    : in;
            if (!arrayInput && index != 0) {
                throw new IllegalArgumentException("field " + index + " of a one-value input");
            }
            return EnumUtils.convert(value, type);
        };
        BlockBuilder body = new BlockBuilder();
        if (withContext) {
            body.add(Expressions.declare(Modifier.FINAL, DataContext.ROOT, Expressions.convert_(
                    Expressions.arrayIndex(Expressions.convert_(in, Object[].class),
                            Expressions.constant(rowType.getFieldCount())), DataContext.class)));
        }
        List<Expression> values = RexToLixTranslator.translateProjects(program.getProgram(), typeFactory, conformance,
                body, null, null, DataContext.ROOT, getter, null);
        Expression value = values.get(0);
        if (Primitive.is(value.getType())) {
            value = Expressions.box(value);
        }
        body.add(Expressions.return_(null, Expressions.convert_(value, Object.class)));
        MethodDeclaration apply = Expressions.methodDecl(Modifier.PUBLIC, Object.class, "apply", List.of(in),
                body.toBlock());
        ClassDeclaration cls = Expressions.classDecl(Modifier.PUBLIC, "Expression", null, List.of(Function1.class),
                List.of(apply));
        cls = (ClassDeclaration) cls.accept(ClassDeclarationFinder.create());
        String source = Expressions.toString(cls.memberDeclarations, "\n", false);
        @SuppressWarnings("unchecked")
        Function1<Object, Object> f = (Function1<Object, Object>) (Function1<?, ?>)
                new RexExecutable(source, "the expression " + expr).getFunction();
        return f;
    }
}
