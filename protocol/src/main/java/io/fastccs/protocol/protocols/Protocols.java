package io.fastccs.protocol.protocols;

import io.fastccs.protocol.eiger.EigerProtocol;
import io.fastccs.protocol.eventual.EventualProtocol;
import io.fastccs.protocol.primitives.Protocol;
import io.fastccs.protocol.wren.WrenProtocol;
import io.fastccs.protocol.spi.ProtocolFactory;

/** The factory of each protocol, for hosts that choose one by its word. */
public final class Protocols {
    private Protocols() {
    }

    public static ProtocolFactory factory(Protocol protocol) {
        return switch (protocol) {
            case FASTCCS -> new FastCcsProtocol();
            case EVENTUAL -> new EventualProtocol();
            case EIGER -> new EigerProtocol();
            case WREN -> new WrenProtocol();
        };
    }
}
