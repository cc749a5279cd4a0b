package io.fastccs.client.internal;

import io.fastccs.core.wire.MalformedFrameException;
import io.fastccs.core.wire.WireCodec;
import io.fastccs.core.wire.WireLimits;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.DecoderException;
import io.netty.handler.codec.MessageToMessageDecoder;

import java.util.List;

/** Decodes one frame body (the length prefix already stripped) into a message. */
final class MessageDecoder extends MessageToMessageDecoder<ByteBuf> {
    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf frame, List<Object> out) {
        try {
            if (frame.hasArray()) {
                out.add(WireCodec.decode(frame.array(), frame.arrayOffset() + frame.readerIndex(), frame.readableBytes(),
                        WireLimits.DEFAULT));
            } else {
                out.add(WireCodec.decode(ByteBufUtil.getBytes(frame), WireLimits.DEFAULT));
            }
        } catch (MalformedFrameException e) {
            throw new DecoderException(e);
        }
    }
}
