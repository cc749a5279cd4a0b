package io.fastccs.baselines.wren;

import static io.fastccs.core.wire.CoreStructs.outcome;
import static io.fastccs.core.wire.CoreStructs.outcomeToWire;
import static io.fastccs.core.wire.CoreStructs.readValues;
import static io.fastccs.core.wire.CoreStructs.readValuesToWire;
import static io.fastccs.core.wire.CoreStructs.txnId;
import static io.fastccs.core.wire.CoreStructs.txnIdToWire;
import static io.fastccs.core.wire.CoreStructs.writes;
import static io.fastccs.core.wire.CoreStructs.writesToWire;
import static io.fastccs.core.wire.WireChecks.checkNonNegative;
import static io.fastccs.core.wire.WireChecks.checkTimeOrMinusOne;
import static io.fastccs.core.wire.WireChecks.keys;
import static io.fastccs.core.wire.WireChecks.keysToWire;
import static io.fastccs.core.wire.WireChecks.nonNegative;
import static io.fastccs.core.wire.WireChecks.requireSet;
import static io.fastccs.core.wire.WireChecks.timeOrMinusOne;

import io.fastccs.baselines.wren.wire.thrift.WrenAbort;
import io.fastccs.baselines.wren.wire.thrift.WrenBody;
import io.fastccs.baselines.wren.wire.thrift.WrenCheckTxn;
import io.fastccs.baselines.wren.wire.thrift.WrenCommit;
import io.fastccs.baselines.wren.wire.thrift.WrenCommitReply;
import io.fastccs.baselines.wren.wire.thrift.WrenCommitRequest;
import io.fastccs.baselines.wren.wire.thrift.WrenLst;
import io.fastccs.baselines.wren.wire.thrift.WrenOutcomeRequest;
import io.fastccs.baselines.wren.wire.thrift.WrenPrepare;
import io.fastccs.baselines.wren.wire.thrift.WrenPrepareReply;
import io.fastccs.baselines.wren.wire.thrift.WrenSlice;
import io.fastccs.baselines.wren.wire.thrift.WrenSliceReply;
import io.fastccs.baselines.wren.wire.thrift.WrenStart;
import io.fastccs.baselines.wren.wire.thrift.WrenStartReply;
import io.fastccs.core.wire.ProtocolWire;
import io.fastccs.core.wire.WireMember;

import java.util.List;

/**
 * Wren's messages ({@link WrenMessages}) to the structs of {@code wren.thrift} and back ({@code WrenBody}: member ids
 * 60-72), with the wire's shared checks. Timestamps (HLC) are never negative, except a CommitReply's commit time,
 * which is -1 unless the transaction committed.
 */
public final class WrenWire implements ProtocolWire {
    @Override
    public List<WireMember<?, ?>> members() {
        return List.of(
                WireMember.of(WrenBody._Fields.WREN_START, WrenMessages.Start.class, WrenStart::new,
                        s -> {
                            checkNonNegative(s.lst(), "WrenStart.lst");
                            return new WrenStart(s.requestId(), s.lst());
                        },
                        (w, limits) -> new WrenMessages.Start(
                                requireSet(w.isSetRequestId(), "WrenStart.requestId", w.getRequestId()),
                                nonNegative(w.isSetLst(), w.getLst(), "WrenStart.lst"))),
                WireMember.of(WrenBody._Fields.WREN_START_REPLY, WrenMessages.StartReply.class, WrenStartReply::new,
                        r -> {
                            checkNonNegative(r.lt(), "WrenStartReply.lt");
                            return new WrenStartReply(r.requestId(), r.lt());
                        },
                        (w, limits) -> new WrenMessages.StartReply(
                                requireSet(w.isSetRequestId(), "WrenStartReply.requestId", w.getRequestId()),
                                nonNegative(w.isSetLt(), w.getLt(), "WrenStartReply.lt"))),
                WireMember.of(WrenBody._Fields.WREN_SLICE, WrenMessages.Slice.class, WrenSlice::new,
                        s -> {
                            checkNonNegative(s.lt(), "WrenSlice.lt");
                            return new WrenSlice(s.requestId(), keysToWire(s.keys()), s.lt());
                        },
                        (w, limits) -> new WrenMessages.Slice(
                                requireSet(w.isSetRequestId(), "WrenSlice.requestId", w.getRequestId()),
                                keys(w.getKeys(), "WrenSlice.keys", limits),
                                nonNegative(w.isSetLt(), w.getLt(), "WrenSlice.lt"))),
                WireMember.of(WrenBody._Fields.WREN_SLICE_REPLY, WrenMessages.SliceReply.class, WrenSliceReply::new,
                        r -> new WrenSliceReply(r.requestId(), readValuesToWire(r.values(), "WrenSliceReply.values[].sequence")),
                        (w, limits) -> new WrenMessages.SliceReply(
                                requireSet(w.isSetRequestId(), "WrenSliceReply.requestId", w.getRequestId()),
                                readValues(w.getValues(), "WrenSliceReply.values", limits))),
                WireMember.of(WrenBody._Fields.WREN_COMMIT_REQUEST, WrenMessages.CommitRequest.class, WrenCommitRequest::new,
                        c -> {
                            checkNonNegative(c.lt(), "WrenCommitRequest.lt");
                            checkNonNegative(c.hwt(), "WrenCommitRequest.hwt");
                            return new WrenCommitRequest(c.requestId(), txnIdToWire(c.txnId()), c.lt(), c.hwt(),
                                    writesToWire(c.writes()));
                        },
                        (w, limits) -> new WrenMessages.CommitRequest(
                                requireSet(w.isSetRequestId(), "WrenCommitRequest.requestId", w.getRequestId()),
                                txnId(w.getTxnId(), "WrenCommitRequest.txnId"),
                                nonNegative(w.isSetLt(), w.getLt(), "WrenCommitRequest.lt"),
                                nonNegative(w.isSetHwt(), w.getHwt(), "WrenCommitRequest.hwt"),
                                writes(w.getWrites(), "WrenCommitRequest.writes", limits))),
                WireMember.of(WrenBody._Fields.WREN_OUTCOME_REQUEST, WrenMessages.OutcomeRequest.class, WrenOutcomeRequest::new,
                        o -> new WrenOutcomeRequest(o.requestId(), txnIdToWire(o.txnId())),
                        (w, limits) -> new WrenMessages.OutcomeRequest(
                                requireSet(w.isSetRequestId(), "WrenOutcomeRequest.requestId", w.getRequestId()),
                                txnId(w.getTxnId(), "WrenOutcomeRequest.txnId"))),
                WireMember.of(WrenBody._Fields.WREN_COMMIT_REPLY, WrenMessages.CommitReply.class, WrenCommitReply::new,
                        r -> {
                            checkTimeOrMinusOne(r.ct(), "WrenCommitReply.ct");
                            return new WrenCommitReply(r.requestId(), txnIdToWire(r.txnId()), outcomeToWire(r.outcome()), r.ct());
                        },
                        (w, limits) -> new WrenMessages.CommitReply(
                                requireSet(w.isSetRequestId(), "WrenCommitReply.requestId", w.getRequestId()),
                                txnId(w.getTxnId(), "WrenCommitReply.txnId"),
                                outcome(w.getOutcome(), "WrenCommitReply.outcome"),
                                timeOrMinusOne(w.isSetCt(), w.getCt(), "WrenCommitReply.ct"))),
                WireMember.of(WrenBody._Fields.WREN_PREPARE, WrenMessages.Prepare.class, WrenPrepare::new,
                        p -> {
                            checkNonNegative(p.ht(), "WrenPrepare.ht");
                            return new WrenPrepare(txnIdToWire(p.txnId()), p.ht(), writesToWire(p.writes()));
                        },
                        (w, limits) -> new WrenMessages.Prepare(
                                txnId(w.getTxnId(), "WrenPrepare.txnId"),
                                nonNegative(w.isSetHt(), w.getHt(), "WrenPrepare.ht"),
                                writes(w.getWrites(), "WrenPrepare.writes", limits))),
                WireMember.of(WrenBody._Fields.WREN_PREPARE_REPLY, WrenMessages.PrepareReply.class, WrenPrepareReply::new,
                        r -> {
                            checkNonNegative(r.pt(), "WrenPrepareReply.pt");
                            return new WrenPrepareReply(txnIdToWire(r.txnId()), r.pt());
                        },
                        (w, limits) -> new WrenMessages.PrepareReply(
                                txnId(w.getTxnId(), "WrenPrepareReply.txnId"),
                                nonNegative(w.isSetPt(), w.getPt(), "WrenPrepareReply.pt"))),
                WireMember.of(WrenBody._Fields.WREN_COMMIT, WrenMessages.Commit.class, WrenCommit::new,
                        c -> {
                            checkNonNegative(c.ct(), "WrenCommit.ct");
                            return new WrenCommit(txnIdToWire(c.txnId()), c.ct());
                        },
                        (w, limits) -> new WrenMessages.Commit(
                                txnId(w.getTxnId(), "WrenCommit.txnId"),
                                nonNegative(w.isSetCt(), w.getCt(), "WrenCommit.ct"))),
                WireMember.of(WrenBody._Fields.WREN_ABORT, WrenMessages.Abort.class, WrenAbort::new,
                        a -> new WrenAbort(txnIdToWire(a.txnId())),
                        (w, limits) -> new WrenMessages.Abort(txnId(w.getTxnId(), "WrenAbort.txnId"))),
                WireMember.of(WrenBody._Fields.WREN_CHECK_TXN, WrenMessages.CheckTxn.class, WrenCheckTxn::new,
                        c -> new WrenCheckTxn(txnIdToWire(c.txnId())),
                        (w, limits) -> new WrenMessages.CheckTxn(txnId(w.getTxnId(), "WrenCheckTxn.txnId"))),
                WireMember.of(WrenBody._Fields.WREN_LST, WrenMessages.Lst.class, WrenLst::new,
                        l -> {
                            checkNonNegative(l.lst(), "WrenLst.lst");
                            return new WrenLst(l.lst());
                        },
                        (w, limits) -> new WrenMessages.Lst(nonNegative(w.isSetLst(), w.getLst(), "WrenLst.lst"))));
    }
}
