package io.fastccs.replication.ratis;

import io.fastccs.replication.GroupSpec;
import io.fastccs.replication.NamedThreads;
import io.fastccs.replication.NotLeaderException;
import io.fastccs.replication.ReplicatedLog;
import io.fastccs.replication.ReplicationException;
import org.apache.ratis.protocol.ClientId;
import org.apache.ratis.protocol.Message;
import org.apache.ratis.protocol.RaftClientAsynchronousProtocol;
import org.apache.ratis.protocol.RaftClientReply;
import org.apache.ratis.protocol.RaftClientRequest;
import org.apache.ratis.protocol.RaftGroupId;
import org.apache.ratis.protocol.RaftPeerId;
import org.apache.ratis.protocol.exceptions.LeaderNotReadyException;
import org.apache.ratis.protocol.exceptions.LeaderSteppingDownException;
import org.apache.ratis.protocol.exceptions.ReadException;
import org.apache.ratis.protocol.exceptions.ReadIndexException;
import org.apache.ratis.server.DivisionInfo;
import org.apache.ratis.server.RaftServer;
import org.apache.ratis.thirdparty.com.google.protobuf.ByteString;

import java.io.IOException;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A group's log on this node, submitting to the local Ratis server directly (no network hop to itself): appends as
 * write requests, read barriers as linearizable reads answered by an empty query. Ratis's submit blocks its caller
 * until one of its client threads has taken the request in (RaftServerImpl.executeSubmitClientRequestAsync joins), so
 * appends are handed over on a thread of this log's own: the caller, a partition's protocol thread, never waits on
 * Ratis. One thread, so appends reach the log in the order they were made. Read barriers go to the group's division
 * on the caller's thread, which does not block (see {@link #readAtDivision()}).
 */
final class RatisReplicatedLog implements ReplicatedLog {
    private final RaftServer server;
    private final GroupSpec group;
    private final RaftGroupId groupId;
    private final ClientId clientId = ClientId.randomId();
    private final AtomicLong callIds = new AtomicLong();
    private final ExecutorService submitter;
    private final long steppingDownPatienceMillis;
    private static final long STEPPING_DOWN_RETRY_MILLIS = 20;

    /** @param steppingDownPatienceMillis how long a write waits out a leadership transfer before it fails */
    RatisReplicatedLog(RaftServer server, GroupSpec group, RaftGroupId groupId, long steppingDownPatienceMillis) {
        this.steppingDownPatienceMillis = steppingDownPatienceMillis;
        this.server = server;
        this.group = group;
        this.groupId = groupId;
        this.submitter = NamedThreads.single("fastccs-group-" + group.range() + "-submit");
    }

    /** Stops handing requests over; those not handed over yet fail. */
    void close() {
        submitter.shutdownNow();
    }

    @Override
    public GroupSpec group() {
        return group;
    }

    @Override
    public CompletableFuture<Long> append(byte[] batch) {
        return submitWrite(Message.valueOf(ByteString.copyFrom(batch))).thenApply(RaftClientReply::getLogIndex);
    }

    @Override
    public CompletableFuture<Void> readBarrier() {
        // Ratis serves a linearizable read at a follower too (by asking the leader for a read index), so success alone
        // does not say this member leads: it must lead in the same term before and after the lease-checked read.
        long term = term();
        if (!isLeaderReady())
            return CompletableFuture.failedFuture(new NotLeaderException("node " + server.getId() + " does not lead group "
                    + group.range(), leaderId().orElse(null)));
        return readAtDivision().thenApply(reply -> {
            if (!isLeaderReady() || term() != term)
                throw new CompletionException(new NotLeaderException("node " + server.getId() + " stopped leading group "
                        + group.range() + " during the read barrier", leaderId().orElse(null)));
            return null;
        });
    }

    /**
     * A lease-checked linearizable read handed to the group's division directly, on the caller's thread: unlike a write
     * it does not block its caller (Ratis's server-level submit would, waiting for one of its client threads), and with
     * a valid lease it completes before returning, with no thread hop at all. It need not queue behind appends: it asks
     * only whether this member still leads under its lease, not what the log holds. On the 2-core machine each hop
     * cost about a millisecond under load and every client reply waited for one or two checks.
     */
    private CompletableFuture<RaftClientReply> readAtDivision() {
        RaftClientRequest request = newRequest(Message.EMPTY, RaftClientRequest.readRequestType());
        CompletableFuture<RaftClientReply> reply;
        try {
            if (!(server.getDivision(groupId) instanceof RaftClientAsynchronousProtocol division))
                return CompletableFuture.failedFuture(new ReplicationException("group " + group.range()
                        + ": this Ratis version's division takes no requests", null));
            reply = division.submitClientRequestAsync(request);
        } catch (IOException e) {
            return CompletableFuture.failedFuture(translate(e));
        }
        return succeeded(reply);
    }

    /** A request of this log's client with a call id of its own. */
    private RaftClientRequest newRequest(Message message, RaftClientRequest.Type type) {
        return RaftClientRequest.newBuilder()
                .setClientId(clientId)
                .setServerId(server.getId())
                .setGroupId(groupId)
                .setCallId(callIds.incrementAndGet())
                .setMessage(message)
                .setType(type)
                .build();
    }

    private CompletableFuture<RaftClientReply> submitWrite(Message message) {
        RaftClientRequest request = newRequest(message, RaftClientRequest.writeRequestType());
        CompletableFuture<RaftClientReply> submitted;
        try {
            submitted = CompletableFuture.supplyAsync(() -> submitRetryingWhileSteppingDown(request), submitter)
                    .thenCompose(f -> f);
        } catch (RejectedExecutionException e) {
            return CompletableFuture.failedFuture(new ReplicationException("group " + group.range() + ": the log is closed", e));
        }
        return succeeded(submitted);
    }

    /** The reply, or our exception for Ratis's failure or refusal. */
    private CompletableFuture<RaftClientReply> succeeded(CompletableFuture<RaftClientReply> reply) {
        return reply.handle((r, error) -> {
            if (error != null) throw new CompletionException(translate(unwrap(error)));
            if (!r.isSuccess()) throw new CompletionException(translate(r.getException()));
            return r;
        });
    }

    /**
     * Hands a write to Ratis; one refused because a leadership transfer is under way is handed over again until
     * the transfer ends (one way or the other), for at most the longest election timeout. Ratis refuses it before
     * appending anything, so the entry is not in the log twice, and this thread waits meanwhile, so the appends after
     * it keep their order. Before, each refusal failed the partition's store, and a transfer that timed out (the
     * transferee behind) cost the leader a restart of its partition though it kept leading.
     */
    private CompletableFuture<RaftClientReply> submitRetryingWhileSteppingDown(RaftClientRequest request) {
        long deadline = MonotonicClock.nanoTime() + TimeUnit.MILLISECONDS.toNanos(steppingDownPatienceMillis);
        RaftClientRequest attempt = request;
        while (true) {
            CompletableFuture<RaftClientReply> reply;
            try {
                reply = server.submitClientRequestAsync(attempt);
            } catch (IOException e) {
                throw new CompletionException(new ReplicationException("group " + group.range() + ": " + e.getMessage(), e));
            }
            // The refusal comes back at once; anything else is the request taken in (or failed otherwise).
            RaftClientReply now = reply.isDone() && !reply.isCompletedExceptionally() ? reply.join() : null;
            if (now == null || !(now.getException() instanceof LeaderSteppingDownException) || MonotonicClock.nanoTime() - deadline > 0)
                return reply;
            try {
                Thread.sleep(STEPPING_DOWN_RETRY_MILLIS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return reply;
            }
            // A new call id: the retry cache remembers the refused one with its refusal.
            attempt = newRequest(request.getMessage(), request.getType());
        }
    }

    private Exception translate(Throwable error) {
        if (error instanceof org.apache.ratis.protocol.exceptions.NotLeaderException nle) {
            String hint = nle.getSuggestedLeader() == null ? null : nle.getSuggestedLeader().getId().toString();
            return new NotLeaderException("node " + server.getId() + " does not lead group " + group.range()
                    + (hint == null ? "" : "; the leader is " + hint), hint);
        }
        if (error instanceof LeaderNotReadyException
                || error instanceof ReadIndexException
                || error instanceof ReadException
                || error instanceof LeaderSteppingDownException)
            return new NotLeaderException("node " + server.getId() + " cannot serve group " + group.range()
                    + " as leader now: " + error.getMessage(), leaderId().orElse(null));
        return new ReplicationException("group " + group.range() + ": " + (error == null ? "failed" : error.getMessage()), error);
    }

    private static Throwable unwrap(Throwable t) {
        while (t instanceof CompletionException && t.getCause() != null) t = t.getCause();
        return t;
    }

    private Optional<DivisionInfo> info() {
        try {
            return Optional.of(server.getDivision(groupId).getInfo());
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    @Override
    public boolean isLeaderReady() {
        return info().map(i -> i.isLeader() && i.isLeaderReady()).orElse(false);
    }

    @Override
    public long term() {
        return info().map(DivisionInfo::getCurrentTerm).orElse(0L);
    }

    @Override
    public Optional<String> leaderId() {
        return info().map(DivisionInfo::getLeaderId).map(RaftPeerId::toString);
    }

    @Override
    public long appliedIndex() {
        return info().map(DivisionInfo::getLastAppliedIndex).orElse(-1L);
    }
}
