/**
 * The wire format: {@link io.fastccs.protocol.wire.WireCodec} maps each
 * {@link io.fastccs.protocol.messages.Message} to one Thrift compact-protocol frame and back. The schema is
 * {@code src/main/thrift/fastccs.thrift}; the structs generated from it live in
 * {@code io.fastccs.protocol.wire.thrift} and are an implementation detail of the codec.
 */
package io.fastccs.protocol.wire;
