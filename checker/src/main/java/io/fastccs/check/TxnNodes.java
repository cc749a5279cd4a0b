package io.fastccs.check;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The committed transactions of a check run as graph nodes {@code 0..nc-1} (history order), with their
 * sessions and session-order positions; what {@link CheckRun} shares with the typed-key checks.
 *
 * @param tx        every transaction of the history (committed and aborted), by transaction index
 * @param nodeTx    transaction index of each node (increasing)
 * @param nodeSess  dense session index of each node
 * @param nodeSo    1-based position of each node in its session
 * @param sessFinal whether each dense session is final
 */
record TxnNodes(Txn[] tx, int[] nodeTx, int[] nodeSess, int[] nodeSo, boolean[] sessFinal) {

    /** Where the checks report anomalies. */
    interface Sink {
        void report(Anomaly.Kind kind, String description, List<Long> txnIds, Long key);
    }

    int count() {
        return nodeTx.length;
    }

    /** Node of a committed transaction index, or a negative number for an aborted one. */
    int nodeOf(int txIndex) {
        return Arrays.binarySearch(nodeTx, txIndex);
    }

    boolean isFinal(int node) {
        return sessFinal[nodeSess[node]];
    }

    String name(int txIndex) {
        return "T" + tx[txIndex].id();
    }

    String nodeName(int node) {
        return name(nodeTx[node]);
    }

    List<Long> idsOfNodes(int... nodes) {
        List<Long> out = new ArrayList<>(nodes.length);
        for (int n : nodes) {
            out.add(tx[nodeTx[n]].id());
        }
        return out;
    }

    List<Long> ids(int... txIndexes) {
        List<Long> out = new ArrayList<>(txIndexes.length);
        for (int i : txIndexes) {
            out.add(tx[i].id());
        }
        return out;
    }
}
