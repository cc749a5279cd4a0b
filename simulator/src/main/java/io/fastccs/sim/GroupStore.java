package io.fastccs.sim;

import io.fastccs.protocol.api.PartitionStore;
import io.fastccs.protocol.impl.InMemoryPartitionStore;
import io.fastccs.replication.ReplicatedLog;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/**
 * A replicated partition's store as its leader sees it, feeding the group's {@link ReplicatedLog} as a node's store does
 * (its {@code GroupLogWrites}), but one entry per step. A write applies at once to the leader's view (its own state
 * machine sees its own steps) and joins the open step; at the step's end its writes go into the log as one entry, and
 * reach the group's committed store only when that entry commits. Each leader has a view of its own, starting from the
 * committed store, so what never committed is lost.
 *
 * <p>Durability is per step: a written mark taken during a step completes once the step's entry has committed, or, if
 * the step wrote nothing, the newest entry before it (at the step's end if none is uncommitted). A durable mark, what
 * messages wait for, counts only the writes messages rest on (prepares and aborts): the open step's entry if it holds
 * one when the mark is taken, else the newest uncommitted entry that holds one, else nothing. The settled-prefix news reaches the partition a while after that commit, as
 * in the node, where it queues behind other work on the protocol thread while the replies resting on the same writes
 * may already have left; the delay is drawn as the step ends.
 */
final class GroupStore extends SimStore {
    private final InMemoryPartitionStore leaderView;
    private final ReplicaGroup group;
    private final ReplicatedLog log;
    private final EventQueue events;
    private List<Consumer<PartitionStore>> openStep = new ArrayList<>();
    /** Whether the open step holds a write that messages rest on. */
    private boolean openStepRequired;
    /** Marks taken in the open step, in the order taken. */
    private List<CompletableFuture<Void>> openMarks = new ArrayList<>();
    /** The settled-prefix news of the open step (the last one asked for), or null. */
    private Runnable openNews;
    /** Per entry appended and not yet committed, oldest first: what runs once it has, and the marks among it. */
    private final ArrayDeque<Waiting> uncommitted = new ArrayDeque<>();

    private record Waiting(List<Runnable> then, List<CompletableFuture<Void>> marks, boolean required) {
    }

    GroupStore(InMemoryPartitionStore leaderView, ReplicaGroup group, ReplicatedLog log, EventQueue events,
               BooleanSupplier alive) {
        super(leaderView, events, alive);
        this.leaderView = leaderView;
        this.group = group;
        this.log = log;
        this.events = events;
    }

    @Override
    void write(Consumer<PartitionStore> w) {
        w.accept(leaderView);
        openStep.add(w);
    }

    @Override
    void writeRequired(Consumer<PartitionStore> w) {
        write(w);
        openStepRequired = true;
    }

    /** Broken variant {@code releaseBeforeCommit}: every mark complete at once, so messages leave before their entry commits. */
    @Override
    public CompletableFuture<Void> durableMark() {
        if (group.settings().releaseBeforeCommit()) return DONE;
        if (openStepRequired) return writtenMark();
        Waiting newestRequired = null;
        for (Waiting w : uncommitted) if (w.required()) newestRequired = w;
        if (newestRequired == null) return DONE;
        CompletableFuture<Void> mark = new CompletableFuture<>();
        newestRequired.then().add(() -> mark.complete(null));
        newestRequired.marks().add(mark);
        return mark;
    }

    @Override
    public CompletableFuture<Void> writtenMark() {
        if (group.settings().releaseBeforeCommit()) return DONE;
        CompletableFuture<Void> mark = new CompletableFuture<>();
        openMarks.add(mark);
        return mark;
    }

    @Override
    public CompletableFuture<Void> whenDurable() {
        return writtenMark();
    }

    /** An answer beyond the durable settled prefix waits for its step, as any other reply does here. */
    @Override
    public CompletableFuture<Void> settledMark(CompletableFuture<Void> lastAdvance) {
        return writtenMark();
    }

    /** The open step's settled-prefix news, told after its step's entry commits; only the last one asked for counts. */
    void newsAfterStep(Runnable news) {
        openNews = news;
    }

    @Override
    public void endOfStep() {
        List<Consumer<PartitionStore>> writes = openStep;
        openStep = new ArrayList<>();
        boolean required = openStepRequired;
        openStepRequired = false;
        Waiting target;
        if (writes.isEmpty()) {
            target = uncommitted.peekLast(); // what the step sends may rest on the newest entry
        } else {
            Waiting entry = new Waiting(new ArrayList<>(), new ArrayList<>(), required);
            target = entry;
            uncommitted.addLast(entry);
            log.append(group.carry(writes)).thenRun(() -> {
                uncommitted.removeFirst();
                entry.then().forEach(Runnable::run);
            });
        }
        List<CompletableFuture<Void>> marks = openMarks;
        openMarks = new ArrayList<>();
        for (CompletableFuture<Void> mark : marks) {
            if (target == null) {
                mark.complete(null);
            } else {
                target.then().add(() -> mark.complete(null));
                target.marks().add(mark);
            }
        }
        if (openNews != null) {
            Runnable news = openNews;
            openNews = null;
            long delay = group.newsDelay();
            Runnable deliver = () -> events.schedule(delay, news);
            if (target == null || group.settings().durableBeforeCommit()) deliver.run(); // the variant: before commit
            else target.then().add(deliver);
        }
    }

    /**
     * The term ended: its uncommitted entries are gone, and so is what waited for them. Returns the marks that waited,
     * oldest first: a leader that lives on, deposed, lets them go so that its later steps are not held behind them.
     */
    List<CompletableFuture<Void>> termEnded() {
        List<CompletableFuture<Void>> lost = new ArrayList<>();
        for (Waiting w : uncommitted) lost.addAll(w.marks());
        uncommitted.clear();
        return lost;
    }
}
