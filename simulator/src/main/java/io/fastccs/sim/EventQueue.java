package io.fastccs.sim;

import java.util.PriorityQueue;

/** Simulated time: events ordered by their time, ties by the order they were scheduled in. */
final class EventQueue {
    private record Event(long at, long sequence, Runnable action) implements Comparable<Event> {
        @Override
        public int compareTo(Event o) {
            return at != o.at ? Long.compare(at, o.at) : Long.compare(sequence, o.sequence);
        }
    }

    private final PriorityQueue<Event> queue = new PriorityQueue<>();
    private long now;
    private long eventSequence;

    long now() {
        return now;
    }

    boolean untouched() {
        return queue.isEmpty() && now == 0;
    }

    void schedule(long delay, Runnable action) {
        queue.add(new Event(now + Math.max(0, delay), eventSequence++, action));
    }

    /** Moves time to the next event and returns its action, or null when nothing is left. */
    Runnable next() {
        Event e = queue.poll();
        if (e == null) return null;
        now = e.at();
        return e.action();
    }
}
