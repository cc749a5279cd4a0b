/**
 * The wire format: {@link io.fastccs.core.wire.WireCodec} turns each
 * {@link io.fastccs.core.messages.Message} into one Thrift compact-protocol frame and back. The frame is
 * {@code Frame{1: Body{<member id>: <message struct>}}}; the codec writes and reads that envelope itself and hands the
 * message's struct to the {@link io.fastccs.core.wire.WireMember} of the
 * {@link io.fastccs.core.wire.ProtocolWire} that owns it. Every protocol registers its wire with a
 * {@link java.util.ServiceLoader}, so this package names none of the compared protocols.
 *
 * <p>The schemas: {@code core.thrift} here (the frame, the shared values, the connection's messages), and one per
 * protocol in that protocol's module, which includes it. The generated structs are an implementation detail of the
 * wires. FastCCS's wire is {@code io.fastccs.protocol.wire}; the compared protocols' are in their own packages.
 *
 * <p>Member ids of the frame's body, a block per protocol. Ids 1-15 cost one byte less in the frame than 16-63, and
 * those one byte less than 64 and up. A protocol added later takes a free block.
 * <table>
 *   <caption>Member id blocks</caption>
 *   <tr><th>ids</th><th>owner</th><th>schema</th></tr>
 *   <tr><td>1-7, 9-19, 24-27</td><td>FastCCS</td><td>{@code fastccs.thrift}, {@code FastCcsBody}</td></tr>
 *   <tr><td>8, 20-23</td><td>the connection (ErrorReply, RingRequest, RingReply, Hello, HelloReply)</td>
 *       <td>{@code core.thrift}, {@code ConnectionBody}</td></tr>
 *   <tr><td>28-29</td><td>free</td><td></td></tr>
 *   <tr><td>30-39</td><td>eventual (30-33 used)</td><td>{@code eventual.thrift}, {@code EventualBody}</td></tr>
 *   <tr><td>40-59</td><td>Eiger (40-54 used)</td><td>{@code eiger.thrift}, {@code EigerBody}</td></tr>
 *   <tr><td>60-79</td><td>Wren (60-72 used)</td><td>{@code wren.thrift}, {@code WrenBody}</td></tr>
 *   <tr><td>80 and up</td><td>free</td><td></td></tr>
 * </table>
 * A member id no wire on the class path owns decodes as an unknown message type
 * ({@link io.fastccs.core.wire.MalformedFrameException.Kind#UNKNOWN_MESSAGE}), as one from a newer peer does.
 */
package io.fastccs.core.wire;
