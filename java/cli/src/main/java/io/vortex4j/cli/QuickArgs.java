package io.vortex4j.cli;

import java.lang.reflect.Field;
import java.lang.reflect.ParameterizedType;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * A command's arguments set from its own picocli annotations without picocli's runtime, for the
 * plain command lines of a one-shot run: picocli's ~180 classes are Java 5 class files, which the
 * class-data archive cannot hold, and loading them and its converters costs a one-shot query
 * about 0.1 s. Only the plain case is taken: options named exactly (String, Path or boolean, each
 * given once, {@code --name value} or {@code --name=value}), positional words into the one
 * {@code List<String>} parameter, {@code --verbose}. Anything else — help, an unknown or repeated
 * option, a value that looks like an option, {@code --}, an {@code @file} — is declined, and
 * picocli parses the command line as always (with its messages and exit code 2 for bad usage).
 */
final class QuickArgs {
    private QuickArgs() {}

    /** The {@code --verbose} option every command inherits from {@link Main}. */
    static final String VERBOSE = "--verbose";

    /** What picocli's {@code defaultValue} says when an option has none. */
    private static final String NO_DEFAULT = "__no_default_value__";

    /** The result of {@link #parse}: whether {@code --verbose} was given. */
    record Parsed(boolean verbose) {}

    /**
     * Sets the annotated fields of {@code command} from {@code args} (the command's own, after its
     * name) and returns the result, or null, leaving {@code command} half set, when the command line
     * is not a plain one.
     */
    static Parsed parse(Object command, List<String> args) {
        Map<String, Field> options = new HashMap<>();
        Field positional = null;
        for (Field f : command.getClass().getDeclaredFields()) {
            Option o = f.getAnnotation(Option.class);
            Parameters p = f.getAnnotation(Parameters.class);
            if (o != null) {
                if (!plain(o) || !(f.getType() == String.class || f.getType() == Path.class || f.getType() == boolean.class)) {
                    return null;
                }
                for (String name : o.names()) {
                    options.put(name, f);
                }
            } else if (p != null) {
                if (positional != null || !p.arity().equals("0..*") || !p.index().isEmpty() || !stringList(f)) {
                    return null;
                }
                positional = f;
            }
        }
        try {
            Set<Field> given = new HashSet<>();
            List<String> words = new java.util.ArrayList<>();
            boolean verbose = false;
            for (int i = 0; i < args.size(); i++) {
                String a = args.get(i);
                if (a.equals(VERBOSE) && !options.containsKey(a)) {
                    verbose = true;
                    continue;
                }
                if (!a.startsWith("-")) {
                    if (a.startsWith("@")) {
                        return null; // picocli's argument file
                    }
                    words.add(a);
                    continue;
                }
                int eq = a.indexOf('=');
                Field f = options.get(eq < 0 ? a : a.substring(0, eq));
                if (f == null || !given.add(f)) {
                    return null;
                }
                if (f.getType() == boolean.class) {
                    if (eq >= 0) {
                        return null;
                    }
                    set(command, f, true);
                    continue;
                }
                String value;
                if (eq >= 0) {
                    value = a.substring(eq + 1);
                } else if (i + 1 < args.size()) {
                    value = args.get(++i);
                } else {
                    return null;
                }
                if (value.startsWith("-") || value.startsWith("@")) {
                    return null;
                }
                set(command, f, f.getType() == Path.class ? Paths.get(value) : value);
            }
            for (Field f : new HashSet<>(options.values())) {
                String d = f.getAnnotation(Option.class).defaultValue();
                if (!given.contains(f) && !d.equals(NO_DEFAULT)) {
                    set(command, f, f.getType() == Path.class ? Paths.get(d) : d);
                }
            }
            if (!words.isEmpty()) {
                if (positional == null) {
                    return null;
                }
                set(command, positional, words);
            }
            return new Parsed(verbose);
        } catch (InvalidPathException e) {
            return null; // picocli reports it as bad usage
        }
    }

    /** An option with no converter, arity, split or other picocli behaviour beyond a value. */
    private static boolean plain(Option o) {
        return !o.required() && !o.help() && !o.usageHelp() && !o.versionHelp() && o.arity().isEmpty()
                && o.type().length == 0 && o.converter().length == 0 && o.split().isEmpty() && !o.negatable()
                && !o.interactive() && o.fallbackValue().isEmpty()
                && (o.defaultValue().equals(NO_DEFAULT) || !(o.defaultValue().equals(Option.NULL_VALUE) || o.defaultValue().contains("${")))
                && o.preprocessor().getName().equals("picocli.CommandLine$NoOpParameterPreprocessor")
                && o.parameterConsumer().getName().equals("picocli.CommandLine$NullParameterConsumer");
    }

    private static boolean stringList(Field f) {
        return f.getType() == List.class && f.getGenericType() instanceof ParameterizedType t
                && t.getActualTypeArguments()[0] == String.class;
    }

    private static void set(Object command, Field f, Object value) {
        try {
            f.setAccessible(true);
            f.set(command, value);
        } catch (IllegalAccessException e) {
            throw new IllegalStateException(e);
        }
    }
}
