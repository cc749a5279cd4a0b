package io.fastccs.baselines.eiger;

import io.fastccs.baselines.eiger.EigerMessages.CohortWrite;
import io.fastccs.baselines.eiger.EigerMessages.CoordWrite;
import io.fastccs.baselines.eiger.EigerMessages.Read1;
import io.fastccs.baselines.eiger.EigerMessages.ReadAt;
import io.fastccs.baselines.eiger.EigerMessages.ReadReply;
import io.fastccs.core.messages.ClientRequest;
import io.fastccs.core.messages.ClientResponse;
import io.fastccs.core.messages.ErrorCode;
import io.fastccs.core.messages.ErrorReply;
import io.fastccs.core.messages.KeyValue;
import io.fastccs.core.primitives.Key;
import io.fastccs.core.primitives.TxnId;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static io.fastccs.baselines.eiger.EigerTestCluster.key;
import static org.assertj.core.api.Assertions.assertThat;

class EigerValidationTest {
    static final Key A = key("0:a");
    static final Key B = key("1:b");

    private static ClientResponse ask(EigerTestCluster c, int partition, ClientRequest r) {
        List<ClientResponse> out = new ArrayList<>();
        c.partitions[partition].onClientRequest(out::add, r);
        assertThat(out).hasSize(1);
        return out.get(0);
    }

    private static ErrorReply refused(EigerTestCluster c, int partition, ClientRequest r, ErrorCode code) {
        long clockBefore = c.partitions[partition].clock();
        ClientResponse resp = ask(c, partition, r);
        assertThat(resp).isInstanceOf(ErrorReply.class);
        ErrorReply e = (ErrorReply) resp;
        assertThat(e.code()).isEqualTo(code);
        assertThat(e.requestId()).isEqualTo(r.requestId());
        assertThat(e.message()).isNotBlank();
        // nothing changed: not even the clock, and nothing was sent
        assertThat(c.partitions[partition].clock()).isEqualTo(clockBefore);
        assertThat(c.inFlight).isEmpty();
        return e;
    }

    @Test
    void badInputIsRefusedWithTheRightCodeAndChangesNothing() {
        EigerTestCluster c = new EigerTestCluster(2);
        TxnId t = new TxnId(9, 1);
        refused(c, 0, new Read1(1, 0, List.of()), ErrorCode.INVALID_REQUEST);
        refused(c, 0, new ReadAt(2, 0, List.of(), 3), ErrorCode.INVALID_REQUEST);
        refused(c, 0, new Read1(3, 0, List.of(A, A)), ErrorCode.INVALID_REQUEST);
        refused(c, 0, new Read1(4, -1, List.of(A)), ErrorCode.INVALID_REQUEST);
        refused(c, 0, new ReadAt(5, 0, List.of(A), -2), ErrorCode.INVALID_REQUEST);
        ErrorReply notOwner = refused(c, 0, new Read1(6, 0, List.of(A, B)), ErrorCode.NOT_OWNER);
        assertThat(notOwner.owner()).isEqualTo(1);

        // empty value, to a coordinator and to a cohort
        refused(c, 0, new CoordWrite(7, 0, t, A, List.of(new KeyValue(A, new byte[0])), List.of(0), List.of()),
                ErrorCode.INVALID_REQUEST);
        refused(c, 1, new CohortWrite(8, 0, t, 0, A, List.of(new KeyValue(B, new byte[0]))), ErrorCode.INVALID_REQUEST);
        // a key of another partition in a write
        assertThat(refused(c, 0, new CoordWrite(9, 0, t, A, List.of(new KeyValue(B, new byte[]{1})), List.of(0, 1), List.of()),
                ErrorCode.NOT_OWNER).owner()).isEqualTo(1);
        // coordinator key not owned by the coordinator, coordinator not a participant, a cohort told it coordinates
        refused(c, 0, new CoordWrite(10, 0, t, B, List.of(new KeyValue(A, new byte[]{1})), List.of(0, 1), List.of()),
                ErrorCode.NOT_OWNER);
        refused(c, 0, new CoordWrite(11, 0, t, A, List.of(new KeyValue(A, new byte[]{1})), List.of(1), List.of()),
                ErrorCode.INVALID_REQUEST);
        refused(c, 1, new CohortWrite(12, 0, t, 1, B, List.of(new KeyValue(B, new byte[]{1}))), ErrorCode.INVALID_REQUEST);
        refused(c, 1, new CohortWrite(13, 0, t, 0, B, List.of(new KeyValue(B, new byte[]{1}))), ErrorCode.INVALID_REQUEST);
        refused(c, 0, new CoordWrite(14, 0, t, A, List.of(), List.of(0), List.of()), ErrorCode.INVALID_REQUEST);
        assertThat(c.partitions[0].metrics().requestsRefused()).isEqualTo(11);

        // nothing was stored or marked pending: both keys read absent in one round with LVT = the clock
        ReadReply r0 = (ReadReply) ask(c, 0, new Read1(20, 0, List.of(A)));
        ReadReply r1 = (ReadReply) ask(c, 1, new Read1(21, 0, List.of(B)));
        assertThat(r0.values().get(0).value()).isNull();
        assertThat(r1.values().get(0).value()).isNull();
        assertThat(r1.values().get(0).lvt()).isEqualTo(r1.clock());
    }

    @Test
    void payloadCountsKeysAndValues() {
        Read1 r = new Read1(1, 2, List.of(A, B));
        assertThat(r.payloadBytes()).isEqualTo(6);
        CohortWrite w = new CohortWrite(1, 2, new TxnId(1, 1), 0, A, List.of(new KeyValue(B, new byte[10])));
        assertThat(w.payloadBytes()).isEqualTo(13);
    }
}
