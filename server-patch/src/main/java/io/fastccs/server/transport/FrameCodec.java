package io.fastccs.server.transport;

import io.fastccs.core.messages.Message;
import io.fastccs.core.wire.MalformedFrameException;
import io.fastccs.core.wire.WireCodec;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPipeline;
import io.netty.handler.codec.LengthFieldBasedFrameDecoder;
import io.netty.handler.codec.LengthFieldPrepender;
import io.netty.handler.codec.MessageToByteEncoder;
import io.netty.handler.codec.MessageToMessageDecoder;

import java.util.List;

/**
 * The FastCCS framing, shared by the server and the peer links: a 4-byte big-endian length, then the Thrift
 * compact encoding of one {@link Message} ({@link WireCodec}). A frame that does not decode becomes a
 * {@link MalformedFrameException} object in the pipeline, so the handler can answer it and keep the connection.
 */
public final class FrameCodec {
    private FrameCodec() {
    }

    public static void install(ChannelPipeline pipeline, int maxFrameBytes) {
        pipeline.addLast("frames", new LengthFieldBasedFrameDecoder(maxFrameBytes, 0, 4, 0, 4));
        pipeline.addLast("length", new LengthFieldPrepender(4));
        pipeline.addLast("decode", new Decoder());
        pipeline.addLast("encode", ENCODER);
    }

    private static final Encoder ENCODER = new Encoder();

    @ChannelHandler.Sharable
    private static final class Encoder extends MessageToByteEncoder<Message> {
        @Override
        protected void encode(ChannelHandlerContext ctx, Message msg, ByteBuf out) {
            byte[] bytes = WireCodec.encode(msg);
            out.writeBytes(bytes);
            Traffic.count(ctx.channel(), Traffic.OUTBOUND, bytes.length);
        }
    }

    private static final class Decoder extends MessageToMessageDecoder<ByteBuf> {
        @Override
        protected void decode(ChannelHandlerContext ctx, ByteBuf frame, List<Object> out) {
            byte[] bytes = new byte[frame.readableBytes()];
            frame.readBytes(bytes);
            Traffic.count(ctx.channel(), Traffic.INBOUND, bytes.length);
            try {
                out.add(WireCodec.decode(bytes));
            } catch (MalformedFrameException e) {
                out.add(e);
            }
        }
    }
}
