package io.fastccs.core.api;

/** The host's clock in microseconds. The core never reads the wall clock itself, so a simulator can drive time. */
@FunctionalInterface
public interface TimeSource {
    long nowMicros();
}
