package io.fastccs.protocol.wire;

import static io.fastccs.protocol.wire.WireMapping.checkNonNegative;
import static io.fastccs.protocol.wire.WireMapping.checkTimeOrMinusOne;
import static io.fastccs.protocol.wire.WireMapping.keys;
import static io.fastccs.protocol.wire.WireMapping.keysToWire;
import static io.fastccs.protocol.wire.WireMapping.nonNegative;
import static io.fastccs.protocol.wire.WireMapping.outcome;
import static io.fastccs.protocol.wire.WireMapping.outcomeToWire;
import static io.fastccs.protocol.wire.WireMapping.readValues;
import static io.fastccs.protocol.wire.WireMapping.readValuesToWire;
import static io.fastccs.protocol.wire.WireMapping.requireSet;
import static io.fastccs.protocol.wire.WireMapping.timeOrMinusOne;
import static io.fastccs.protocol.wire.WireMapping.txnId;
import static io.fastccs.protocol.wire.WireMapping.txnIdToWire;
import static io.fastccs.protocol.wire.WireMapping.writes;
import static io.fastccs.protocol.wire.WireMapping.writesToWire;

import io.fastccs.protocol.messages.Message;
import io.fastccs.protocol.wire.thrift.Body;
import io.fastccs.protocol.wire.thrift.WrenAbort;
import io.fastccs.protocol.wire.thrift.WrenCheckTxn;
import io.fastccs.protocol.wire.thrift.WrenCommit;
import io.fastccs.protocol.wire.thrift.WrenCommitReply;
import io.fastccs.protocol.wire.thrift.WrenCommitRequest;
import io.fastccs.protocol.wire.thrift.WrenLst;
import io.fastccs.protocol.wire.thrift.WrenOutcomeRequest;
import io.fastccs.protocol.wire.thrift.WrenPrepare;
import io.fastccs.protocol.wire.thrift.WrenPrepareReply;
import io.fastccs.protocol.wire.thrift.WrenSlice;
import io.fastccs.protocol.wire.thrift.WrenSliceReply;
import io.fastccs.protocol.wire.thrift.WrenStart;
import io.fastccs.protocol.wire.thrift.WrenStartReply;
import io.fastccs.protocol.wren.WrenMessages;

/**
 * Wren's messages ({@link WrenMessages}) to the {@code Wren*} structs of the schema and back, with the checks of
 * {@link WireMapping}. Timestamps (HLC) are never negative, except a CommitReply's commit time, which is -1 unless the
 * transaction committed.
 */
final class WrenWire {
    private WrenWire() {
    }

    /** The body for {@code m}, or null if {@code m} is not a Wren message. */
    static Body toWire(Message m) {
        if (m instanceof WrenMessages.Start s) {
            checkNonNegative(s.lst(), "WrenStart.lst");
            return Body.wrenStart(new WrenStart(s.requestId(), s.lst()));
        } else if (m instanceof WrenMessages.StartReply r) {
            checkNonNegative(r.lt(), "WrenStartReply.lt");
            return Body.wrenStartReply(new WrenStartReply(r.requestId(), r.lt()));
        } else if (m instanceof WrenMessages.Slice s) {
            checkNonNegative(s.lt(), "WrenSlice.lt");
            return Body.wrenSlice(new WrenSlice(s.requestId(), keysToWire(s.keys()), s.lt()));
        } else if (m instanceof WrenMessages.SliceReply r) {
            return Body.wrenSliceReply(new WrenSliceReply(r.requestId(),
                    readValuesToWire(r.values(), "WrenSliceReply.values[].sequence")));
        } else if (m instanceof WrenMessages.CommitRequest c) {
            checkNonNegative(c.lt(), "WrenCommitRequest.lt");
            checkNonNegative(c.hwt(), "WrenCommitRequest.hwt");
            return Body.wrenCommitRequest(new WrenCommitRequest(c.requestId(), txnIdToWire(c.txnId()), c.lt(), c.hwt(),
                    writesToWire(c.writes())));
        } else if (m instanceof WrenMessages.OutcomeRequest o) {
            return Body.wrenOutcomeRequest(new WrenOutcomeRequest(o.requestId(), txnIdToWire(o.txnId())));
        } else if (m instanceof WrenMessages.CommitReply r) {
            checkTimeOrMinusOne(r.ct(), "WrenCommitReply.ct");
            return Body.wrenCommitReply(new WrenCommitReply(r.requestId(), txnIdToWire(r.txnId()),
                    outcomeToWire(r.outcome()), r.ct()));
        } else if (m instanceof WrenMessages.Prepare p) {
            checkNonNegative(p.ht(), "WrenPrepare.ht");
            return Body.wrenPrepare(new WrenPrepare(txnIdToWire(p.txnId()), p.ht(), writesToWire(p.writes())));
        } else if (m instanceof WrenMessages.PrepareReply r) {
            checkNonNegative(r.pt(), "WrenPrepareReply.pt");
            return Body.wrenPrepareReply(new WrenPrepareReply(txnIdToWire(r.txnId()), r.pt()));
        } else if (m instanceof WrenMessages.Commit c) {
            checkNonNegative(c.ct(), "WrenCommit.ct");
            return Body.wrenCommit(new WrenCommit(txnIdToWire(c.txnId()), c.ct()));
        } else if (m instanceof WrenMessages.Abort a) {
            return Body.wrenAbort(new WrenAbort(txnIdToWire(a.txnId())));
        } else if (m instanceof WrenMessages.CheckTxn c) {
            return Body.wrenCheckTxn(new WrenCheckTxn(txnIdToWire(c.txnId())));
        } else if (m instanceof WrenMessages.Lst l) {
            checkNonNegative(l.lst(), "WrenLst.lst");
            return Body.wrenLst(new WrenLst(l.lst()));
        }
        return null;
    }

    static Message fromWire(Body body, WireLimits limits) throws MalformedFrameException {
        return switch (body.getSetField()) {
            case WREN_START -> {
                var w = body.getWrenStart();
                yield new WrenMessages.Start(
                        requireSet(w.isSetRequestId(), "WrenStart.requestId", w.getRequestId()),
                        nonNegative(w.isSetLst(), w.getLst(), "WrenStart.lst"));
            }
            case WREN_START_REPLY -> {
                var w = body.getWrenStartReply();
                yield new WrenMessages.StartReply(
                        requireSet(w.isSetRequestId(), "WrenStartReply.requestId", w.getRequestId()),
                        nonNegative(w.isSetLt(), w.getLt(), "WrenStartReply.lt"));
            }
            case WREN_SLICE -> {
                var w = body.getWrenSlice();
                yield new WrenMessages.Slice(
                        requireSet(w.isSetRequestId(), "WrenSlice.requestId", w.getRequestId()),
                        keys(w.getKeys(), "WrenSlice.keys", limits),
                        nonNegative(w.isSetLt(), w.getLt(), "WrenSlice.lt"));
            }
            case WREN_SLICE_REPLY -> {
                var w = body.getWrenSliceReply();
                yield new WrenMessages.SliceReply(
                        requireSet(w.isSetRequestId(), "WrenSliceReply.requestId", w.getRequestId()),
                        readValues(w.getValues(), "WrenSliceReply.values", limits));
            }
            case WREN_COMMIT_REQUEST -> {
                var w = body.getWrenCommitRequest();
                yield new WrenMessages.CommitRequest(
                        requireSet(w.isSetRequestId(), "WrenCommitRequest.requestId", w.getRequestId()),
                        txnId(w.getTxnId(), "WrenCommitRequest.txnId"),
                        nonNegative(w.isSetLt(), w.getLt(), "WrenCommitRequest.lt"),
                        nonNegative(w.isSetHwt(), w.getHwt(), "WrenCommitRequest.hwt"),
                        writes(w.getWrites(), "WrenCommitRequest.writes", limits));
            }
            case WREN_OUTCOME_REQUEST -> {
                var w = body.getWrenOutcomeRequest();
                yield new WrenMessages.OutcomeRequest(
                        requireSet(w.isSetRequestId(), "WrenOutcomeRequest.requestId", w.getRequestId()),
                        txnId(w.getTxnId(), "WrenOutcomeRequest.txnId"));
            }
            case WREN_COMMIT_REPLY -> {
                var w = body.getWrenCommitReply();
                yield new WrenMessages.CommitReply(
                        requireSet(w.isSetRequestId(), "WrenCommitReply.requestId", w.getRequestId()),
                        txnId(w.getTxnId(), "WrenCommitReply.txnId"),
                        outcome(w.getOutcome(), "WrenCommitReply.outcome"),
                        timeOrMinusOne(w.isSetCt(), w.getCt(), "WrenCommitReply.ct"));
            }
            case WREN_PREPARE -> {
                var w = body.getWrenPrepare();
                yield new WrenMessages.Prepare(
                        txnId(w.getTxnId(), "WrenPrepare.txnId"),
                        nonNegative(w.isSetHt(), w.getHt(), "WrenPrepare.ht"),
                        writes(w.getWrites(), "WrenPrepare.writes", limits));
            }
            case WREN_PREPARE_REPLY -> {
                var w = body.getWrenPrepareReply();
                yield new WrenMessages.PrepareReply(
                        txnId(w.getTxnId(), "WrenPrepareReply.txnId"),
                        nonNegative(w.isSetPt(), w.getPt(), "WrenPrepareReply.pt"));
            }
            case WREN_COMMIT -> {
                var w = body.getWrenCommit();
                yield new WrenMessages.Commit(
                        txnId(w.getTxnId(), "WrenCommit.txnId"),
                        nonNegative(w.isSetCt(), w.getCt(), "WrenCommit.ct"));
            }
            case WREN_ABORT -> new WrenMessages.Abort(txnId(body.getWrenAbort().getTxnId(), "WrenAbort.txnId"));
            case WREN_CHECK_TXN -> new WrenMessages.CheckTxn(txnId(body.getWrenCheckTxn().getTxnId(), "WrenCheckTxn.txnId"));
            case WREN_LST -> {
                var w = body.getWrenLst();
                yield new WrenMessages.Lst(nonNegative(w.isSetLst(), w.getLst(), "WrenLst.lst"));
            }
            default -> throw new IllegalStateException("not a Wren message: " + body.getSetField());
        };
    }
}
