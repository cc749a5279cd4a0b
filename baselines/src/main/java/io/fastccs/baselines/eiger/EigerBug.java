package io.fastccs.baselines.eiger;

/** Deliberately broken Eiger variants, for checking that the history checker notices. Never use outside tests. */
public enum EigerBug {
    /** readAt(k, t) returns the newest version with EVT <= t without asking the coordinator of pending writes. */
    IGNORE_PENDING,
    /** The client accepts its first-round values even when minLVT < maxEVT (no second round). */
    FIRST_ROUND_ONLY
}
