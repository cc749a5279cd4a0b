package io.fastccs.tools.cli;

import io.fastccs.client.CausalToken;
import io.fastccs.tools.cli.CliInput.InputException;
import io.fastccs.tools.cluster.Ports;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class CliInputTest {
    @Test
    void theDefaultContactPointIsNode1OfTheLocalCluster() throws InputException {
        assertThat(CliInput.DEFAULT_HOST).isEqualTo(Ports.DEFAULT.address(1) + ":" + Ports.DEFAULT.fastccs());
        assertThat(CliInput.contactPoints(List.of())).containsExactly(new InetSocketAddress("127.0.0.1", 9142));
    }

    @Test
    void contactPointsTakeAnOptionalPort() throws InputException {
        assertThat(CliInput.contactPoint("127.0.0.5")).isEqualTo(new InetSocketAddress("127.0.0.5", 9142));
        assertThat(CliInput.contactPoint("localhost:9000")).isEqualTo(new InetSocketAddress("localhost", 9000));
        assertThat(CliInput.contactPoint("[::1]:9200")).isEqualTo(new InetSocketAddress("::1", 9200));
        assertThat(CliInput.contactPoint("[::1]")).isEqualTo(new InetSocketAddress("::1", 9142));
        assertThat(CliInput.contactPoint("::1")).isEqualTo(new InetSocketAddress("::1", 9142));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", ":9142", "127.0.0.1:", "127.0.0.1:0", "127.0.0.1:65536", "127.0.0.1:x", "[::1", "[::1]9142"})
    void badContactPointsAreRefused(String text) {
        assertThatThrownBy(() -> CliInput.contactPoint(text)).isInstanceOf(InputException.class).hasMessageStartingWith("--host '");
    }

    @Test
    void timeoutsAreSecondsOrHaveAUnit() throws InputException {
        assertThat(CliInput.timeout("5")).isEqualTo(Duration.ofSeconds(5));
        assertThat(CliInput.timeout("0.5")).isEqualTo(Duration.ofMillis(500));
        assertThat(CliInput.timeout("250ms")).isEqualTo(Duration.ofMillis(250));
        assertThat(CliInput.timeout("2s")).isEqualTo(Duration.ofSeconds(2));
        assertThat(CliInput.timeout("1m")).isEqualTo(Duration.ofMinutes(1));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "soon", "0", "-1", "0ms", "2d", "90000000"})
    void badTimeoutsAreRefused(String text) {
        assertThatThrownBy(() -> CliInput.timeout(text)).isInstanceOf(InputException.class).hasMessageStartingWith("--timeout '");
    }

    @Test
    void writesSplitAtTheFirstEqualsSignAndKeepTheirOrder() throws InputException {
        assertThat(CliInput.writes(List.of("z=1", "url=a=b", "k= spaced "))).containsExactly(
                java.util.Map.entry("z", "1"), java.util.Map.entry("url", "a=b"), java.util.Map.entry("k", " spaced "));
    }

    @Test
    void tooManyKeysAreRefused() {
        List<String> keys = java.util.stream.IntStream.range(0, 1025).mapToObj(i -> "k" + i).toList();
        assertThatThrownBy(() -> CliInput.keys(keys)).hasMessage("1025 keys, more than the maximum of 1024 in one transaction");
    }

    @Test
    void tokensRoundTrip() throws InputException {
        CausalToken token = CausalToken.of(new long[] {3, 0, 7}, 42);
        assertThat(CliInput.token(token.toString())).isEqualTo(token);
        assertThat(CliInput.token("  " + token + "\n")).isEqualTo(token);
    }

    @Test
    void shellLinesSplitAtBlanksWithQuotesAndEscapes() throws InputException {
        assertThat(CliInput.words("  write msg=\"hello world\"  k='a b' x\\ y q=\"say \\\"hi\\\"\" ''"))
                .containsExactly("write", "msg=hello world", "k=a b", "x y", "q=say \"hi\"", "");
        assertThat(CliInput.words("   ")).isEmpty();
        assertThatThrownBy(() -> CliInput.words("write k='v")).hasMessage("unterminated ' quote");
        assertThatThrownBy(() -> CliInput.words("write k=v\\")).hasMessage("a backslash ends the line");
    }
}
