package io.fastccs.client;

/**
 * What a key holds. A key's type is fixed by the first operation ever written to it and never changes: a put makes a
 * plain key, an {@link WriteBuilder#add add} a counter, and so on. A transaction that applies an operation of another
 * type to a key fails with {@link InvalidRequestException} and has no effect. See {@link WriteBuilder}.
 */
public enum KeyType {
    /** A plain key: {@link WriteBuilder#put put}s replace its value; read it with {@link ReadResult#get}. */
    REGISTER("a plain key (put)", "get"),
    /** A counter: the sum of every {@link WriteBuilder#add add}'s delta; read it with {@link ReadResult#counter}. */
    COUNTER("a counter (add)", "counter"),
    /** A max register: the largest value any {@link WriteBuilder#max max} wrote; read it with {@link ReadResult#max}. */
    MAX("a max register (max)", "max"),
    /**
     * An add-wins set of byte strings ({@link WriteBuilder#setAdd setAdd}, {@link WriteBuilder#setRemove setRemove});
     * read it with {@link ReadResult#set}.
     */
    SET("a set (setAdd, setRemove)", "set"),
    /**
     * The k items with the highest scores ({@link WriteBuilder#topkInsert topkInsert}); read it with
     * {@link ReadResult#topk}.
     */
    TOPK("a top-k (topkInsert)", "topk");

    private final String description;
    private final String accessor;

    KeyType(String description, String accessor) {
        this.description = description;
        this.accessor = accessor;
    }

    /** For messages: "a counter (add)". */
    public String description() {
        return description;
    }

    /** The name of the {@link ReadResult} method that reads a key of this type: "counter". */
    public String accessor() {
        return accessor;
    }
}
