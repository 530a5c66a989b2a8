package io.keyline.core.jobfile;

import java.math.BigDecimal;
import java.util.List;

/** A JSON value that remembers where it starts in the job file (1-based line and column). */
sealed interface SourceNode {

    int line();

    int column();

    /** The JSON type name used in messages: object, array, string, number, boolean or null. */
    String typeName();

    /** A field of an object, with the position of its name. */
    record Field(String name, int line, int column, SourceNode value) {
    }

    /** An object; fields in file order, names unique. */
    record Obj(int line, int column, List<Field> fields) implements SourceNode {
        public Obj {
            fields = List.copyOf(fields);
        }

        /** The field with this name, or {@code null}. */
        Field field(String name) {
            return fields.stream().filter(f -> f.name().equals(name)).findFirst().orElse(null);
        }

        @Override
        public String typeName() {
            return "object";
        }
    }

    /** An array. */
    record Arr(int line, int column, List<SourceNode> items) implements SourceNode {
        public Arr {
            items = List.copyOf(items);
        }

        @Override
        public String typeName() {
            return "array";
        }
    }

    /** A string; the position is that of its opening quote. */
    record Str(int line, int column, String value) implements SourceNode {
        @Override
        public String typeName() {
            return "string";
        }
    }

    /**
     * A number.
     *
     * @param integral whether it was written without fraction or exponent
     */
    record Num(int line, int column, BigDecimal value, boolean integral) implements SourceNode {
        @Override
        public String typeName() {
            return "number";
        }
    }

    /** {@code true} or {@code false}. */
    record Bool(int line, int column, boolean value) implements SourceNode {
        @Override
        public String typeName() {
            return "boolean";
        }
    }

    /** {@code null}. */
    record Null(int line, int column) implements SourceNode {
        @Override
        public String typeName() {
            return "null";
        }
    }
}
