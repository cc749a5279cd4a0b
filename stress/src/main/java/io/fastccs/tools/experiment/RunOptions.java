package io.fastccs.tools.experiment;

import picocli.CommandLine.Option;

/** What every experiment run on a local cluster takes: how long it measures, with how many threads, keys and repetitions. */
public final class RunOptions {
    @Option(names = "--duration", description = "measured seconds per run (default: ${DEFAULT-VALUE})")
    int seconds = 15;
    @Option(names = "--warmup", description = "warm-up seconds per run, not measured (default: ${DEFAULT-VALUE})")
    int warmup = 5;
    @Option(names = "--threads", description = "client threads, closed loop (default: ${DEFAULT-VALUE})")
    int threads = 16;
    @Option(names = "--keys", description = "population, gaussian(1..KEYS) as in Table 4.1 (default: ${DEFAULT-VALUE})")
    int keys = 10_000;
    @Option(names = "--reps", description = "repetitions of every point, the order of the modes alternating (default: ${DEFAULT-VALUE})")
    int reps = 1;
}
