package io.fastccs.tools.cli;

import io.fastccs.client.WriteBuilder;

/**
 * One operation of a command-line write, parsed and checked ({@link CliInput}): a put, or a commutative operation on a
 * counter, max register, set or top-k.
 *
 * @param text   a put's value, a set's element or a top-k's item; null for add and max
 * @param number an add's delta, a max's value or a top-k insert's score
 * @param k      a top-k insert's k; 0 otherwise
 */
record CliOperation(Kind kind, String key, String text, long number, int k) {
    /** The operations, named as the commands and options that write them. */
    enum Kind {
        PUT("put"), ADD("add"), MAX("max"), SET_ADD("set-add"), SET_REMOVE("set-remove"), TOPK_INSERT("topk-insert");

        final String word;

        Kind(String word) {
            this.word = word;
        }
    }

    /** Adds this operation to {@code write}. */
    WriteBuilder addTo(WriteBuilder write) {
        return switch (kind) {
            case PUT -> write.put(key, text);
            case ADD -> write.add(key, number);
            case MAX -> write.max(key, number);
            case SET_ADD -> write.setAdd(key, text);
            case SET_REMOVE -> write.setRemove(key, text);
            case TOPK_INSERT -> write.topkInsert(key, k, text, number);
        };
    }
}
