/**
 * The FastCCS client API: transactional causal consistency over a FastCCS cluster.
 *
 * <p>Start with {@link io.fastccs.client.FastCcsClient#builder()}. A {@link io.fastccs.client.FastCcsClient}
 * connects to every node of the cluster and is shared by the whole application; it hands out
 * {@link io.fastccs.client.CausalSession}s, one per independent causal context (typically one per end user).
 * A session runs read-only and write-only transactions; every transaction sees everything the session wrote or
 * read before it, and reads are atomic snapshots. A session's context travels between processes as a
 * {@link io.fastccs.client.CausalToken}.
 *
 * <p>The client speaks FastCCS unless built
 * {@link io.fastccs.client.FastCcsClientBuilder#withProtocol withProtocol} Eiger, Wren or eventual, the protocols
 * FastCCS is compared with, for a cluster whose nodes run that protocol: the same API, their guarantees, no tokens.
 *
 * <p>Every operation has an asynchronous form returning a {@link java.util.concurrent.CompletionStage} and a
 * blocking form; the blocking form must not be called from a callback of the asynchronous one. Every failure
 * is a {@link io.fastccs.client.FastCcsException}.
 *
 * <p>Binary compatibility is guaranteed across minor versions for the types of this package. Interfaces here may
 * gain methods (with defaults where callers could implement them); users should not implement them.
 */
package io.fastccs.client;
