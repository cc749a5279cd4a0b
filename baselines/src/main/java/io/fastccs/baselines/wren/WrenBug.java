package io.fastccs.baselines.wren;

/**
 * Deliberately broken Wren variants, for checking that tests and the history checker notice. Production code never
 * switches them on: they come only from {@link WrenProtocol#WrenProtocol(java.util.Set)}.
 */
public enum WrenBug {
    /**
     * The apply bound is the smallest prepare time itself, not one below it (what the authors' code does under its
     * {@code WREN} flag): a partition may declare a time installed while a transaction prepared at that time is still
     * pending, so a transaction committed at exactly that time is visible at one partition and not another.
     */
    APPLY_AT_MIN_PT,
    /** The client forgets its write cache: a session does not read its own writes until they are stable. */
    NO_WRITE_CACHE
}
