package io.fastccs.protocol.messages;

import java.util.List;

/**
 * A partition's answer to a read that asked to move its session's clock to the newer stable base of {@code epoch}
 * (docs/design/stable-bases.md, "Moving to a newer base"): the client raises its clock to that base ({@code lift}, the
 * base's entries above the request's clock, as differences from it) and from then on names only {@code explicit}
 * (the request's entries above the base) and the entries it learns later.
 *
 * @param explicit ascending partition numbers
 */
public record Rebase(long epoch, ClockDiff lift, List<Integer> explicit) {
    public Rebase {
        explicit = List.copyOf(explicit);
    }
}
